"""Load rule files: YAML with a location kept for every key and value.

A rule file becomes a tree of :class:`Map`, :class:`Seq` and scalars; every
string is a :class:`Text` that knows where its first character is, so that
expression errors point into the file.  ``extends:`` merges a variant onto its
base (see :func:`merge_variant`).

>>> tree = load_tree("rulesets/mygame.yaml")   # doctest: +SKIP
>>> tree["game"], tree.loc("game")             # doctest: +SKIP
('mygame', Location(file='rulesets/mygame.yaml', line=1, col=7))
"""
from __future__ import annotations

import contextlib
import math
import re
from bisect import bisect_left
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from ..errors import Location, RuleError, RuleErrors, did_you_mean, remember_source, unshowable
from .shipped import RULESETS, is_file, strategy_folders


class Text(str):
    """A string from a rule file that knows the location of its characters."""

    loc: Location
    block_indent: int | None = None  # column (0-based) of a block scalar's content
    positions: list[tuple[int, int]] | None = None  # source (line, col) of each character, where escapes or folding
    # moved them

    def at(self, line: int, col: int) -> Location:
        """Location of the character at 1-based (line, col) inside this text."""
        if self.positions is not None:
            lines = self.split("\n")
            offset = sum(len(text) + 1 for text in lines[:line - 1]) + col - 1
            src_line, src_col = self.positions[min(max(offset, 0), len(self.positions) - 1)]
            return Location(self.loc.file, src_line, src_col)
        if self.block_indent is not None:
            return Location(self.loc.file, self.loc.line + line - 1, self.block_indent + col)
        if line == 1:
            return Location(self.loc.file, self.loc.line, self.loc.col + col - 1)
        return Location(self.loc.file, self.loc.line + line - 1, col)


def subtext(text: str, start: int) -> str:
    """`text[start:]`, still knowing where its characters are in the file."""
    rest = text[start:]
    if not isinstance(text, Text):
        return rest
    line = text.count("\n", 0, start) + 1
    col = start - (text.rfind("\n", 0, start) + 1) + 1
    sub = _SubText(rest)
    sub.loc, sub.block_indent, sub.parent, sub.line0, sub.col0 = text.at(line, col), None, text, line, col
    return sub


class _SubText(Text):
    parent: Text
    line0: int
    col0: int

    def at(self, line: int, col: int) -> Location:
        if line == 1:
            return self.parent.at(self.line0, self.col0 + col - 1)
        return self.parent.at(self.line0 + line - 1, col)


# A key of a rule file's mapping: a name or a number (str | int | float; YAML's null is refused as a key). Typed Any
# while the section readers still take keys they checked for names as str without narrowing them (six places).
Key = Any


class Map(dict[Key, Any]):
    """A YAML mapping that remembers where each key and value is (a value is any YAML value)."""

    where: Location
    key_locs: dict[Key, Location]
    value_locs: dict[Key, Location]

    def loc(self, key: Key) -> Location:
        return self.value_locs.get(key, self.where)

    def key_loc(self, key: Key) -> Location:
        return self.key_locs.get(key, self.where)


class Seq(list[Any]):
    """A YAML sequence that remembers where each item is (an item is any YAML value)."""

    where: Location
    item_locs: list[Location]

    def loc(self, i: int) -> Location:
        return self.item_locs[i] if i < len(self.item_locs) else self.where


def location_of(value: Any, default: Location) -> Location:
    """The location a loaded value carries, or `default`."""
    if isinstance(value, Text):
        return value.loc
    return getattr(value, "where", default)


def _mark(node: yaml.Node, filename: str) -> Location:
    return Location(filename, node.start_mark.line + 1, node.start_mark.column + 1)


def _align(value: str, raw: str, line: int, col: int) -> list[tuple[int, int]]:
    """Source (line, col) of each character of a flow scalar's value.

    `raw` is the scalar as written (quotes, escapes, folded line breaks),
    starting at (line, col). Each value character is matched to the next raw
    character equal to it; a folded line break in the source matches the
    space it became. Each is found by bisection among the places of its
    character, never by walking the text: a value of escapes with no literal
    counterpart (`"\\x41\\x41..."`) would walk to the end for every character,
    and a 32 KB file of them had taken a minute to load.
    """
    where, r = [], 0
    coords = []
    places: dict[str, list[int]] = {}
    for at, ch in enumerate(raw):
        coords.append((line, col))
        line, col = (line + 1, 1) if ch == "\n" else (line, col + 1)
        places.setdefault(ch, []).append(at)
    coords.append((line, col))
    for ch in value:
        found = [p[k] for p in (places.get(ch, []), places.get("\n", []) if ch == " " else [])
                 if (k := bisect_left(p, r)) < len(p)]
        if not found:  # an escape with no literal counterpart (\t, \x41, ...)
            where.append(coords[min(r, len(coords) - 1)])
            continue
        r = min(found)
        where.append(coords[r])
        r += 1
    return where


try:  # libyaml's reader, scanner and parser (in C: most of a load's reading), where PyYAML was built with it
    from yaml._yaml import CParser as _EventParser
except ImportError:  # pragma: no cover - PyYAML without libyaml reads the same events in Python
    class _EventParser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):  # type: ignore[no-redef]
        def __init__(self, stream: str):
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)


class _RuleFileLoader(Composer, _EventParser, Resolver):
    """YAML's safe loader without dates (`2020-13-45` is text, never a date: rule files have none), refusing
    lists and mappings nested more than MAX_DEPTH deep as soon as it meets one (YAML's reader slows down with
    every level it is inside, and its composer recurses: a file of 100,000 brackets would take minutes). The
    composer is PyYAML's own, in Python, over the events of libyaml's parser where there is one."""

    yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    depth = 0

    def __init__(self, stream: str):
        _EventParser.__init__(self, stream)
        Composer.__init__(self)
        Resolver.__init__(self)

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                event: Any = self.peek_event()  # (libyaml's or PyYAML's event: both have a start mark)
                raise yaml.composer.ComposerError(None, None, f"lists and mappings nested more than {MAX_DEPTH} "
                                                  "deep", event.start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


# The only YAML types a rule file may hold; anything else (!!binary, !!set, !!python/...) is refused.
PLAIN_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map")}
MAX_BYTES = 500_000  # a rule file with the files it extends (the largest shipped: 36,371): a load's time follows it
MAX_VALUES = 200_000  # values a rule file may expand to (YAML aliases can multiply a short file)
MORE_CHARACTERS = 100_000  # characters of text aliases may add to a file beyond its own size
MAX_DIGITS = 18  # the longest whole number a rule file may write
MAX_DEPTH = 50  # how deep lists and mappings may nest in a rule file (the deepest shipped one: 6)


def number_problem(value: Any) -> str | None:
    """Why a number cannot stand in a rule file (None if it can): too large, or not finite."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return "not a finite number"
    if abs(value) >= 10 ** MAX_DIGITS:
        return f"a number too large (at most {MAX_DIGITS} digits)"
    return None


class _Builder:
    def __init__(self, filename: str, text: str):
        self.filename = filename
        self.text = text
        self.lines = text.splitlines()
        self.scalars = SafeConstructor()
        self.values = 0
        # characters of the texts read, aliases repeating them included: at most twice the file's, and some
        # (a long text repeated by aliases is read again each time: 40 of a megabyte took a minute and 4 GB)
        self.characters, self.most_characters = 0, 2 * len(text) + MORE_CHARACTERS
        self.open: set[int] = set()  # ids of the collections being built (a recursive alias comes back to one)

    def build(self, node: yaml.Node) -> Any:
        self.values += 1
        if self.values > MAX_VALUES:
            raise RuleError(f"the file expands to more than {MAX_VALUES:,} values (YAML aliases repeating "
                            "a large part?)", _mark(node, self.filename))
        if node.tag not in PLAIN_TAGS:
            raise RuleError(f"YAML tag '{node.tag}' is not allowed in a rule file: values are text, numbers, "
                            "true/false, null, lists and mappings", _mark(node, self.filename))
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node)
        if id(node) in self.open:
            raise RuleError("a YAML alias refers to a list or mapping that contains it (a cycle)",
                            _mark(node, self.filename))
        self.open.add(id(node))
        try:
            if isinstance(node, yaml.MappingNode):
                return self._map(node)
            seq = Seq(self.build(n) for n in node.value)
            seq.where = _mark(node, self.filename)
            seq.item_locs = [_mark(n, self.filename) for n in node.value]
            return seq
        finally:
            self.open.discard(id(node))

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        self.characters += len(node.value)
        if self.characters > self.most_characters:
            raise RuleError("the file's texts, repeated by YAML aliases, come to more than twice the file: an alias "
                            "repeats a long text", _mark(node, self.filename))
        try:
            value = self.scalars.construct_object(node)
            problem = number_problem(value)
        except ValueError:  # an integer of thousands of digits
            problem = "a number too large"
        if problem:
            raise RuleError(f"'{node.value[:20]}{'...' if len(node.value) > 20 else ''}' is {problem}",
                            _mark(node, self.filename))
        if isinstance(value, str):
            unshown = unshowable(value)
            if unshown:
                raise RuleError(unshown, _mark(node, self.filename))
            return self._text(value, node)
        return value

    def _map(self, node: yaml.MappingNode) -> Map:
        result = Map()
        result.where = _mark(node, self.filename)
        result.key_locs, result.value_locs = {}, {}
        for key_node, value_node in node.value:
            key = self.build(key_node)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                raise RuleError("a key must be a plain name or number", _mark(key_node, self.filename))
            if key in result:
                raise RuleError(f"duplicate key '{key}'", _mark(key_node, self.filename),
                                hint=f"first given at {result.key_locs[key]}")
            result[key] = self.build(value_node)
            result.key_locs[key] = _mark(key_node, self.filename)
            result.value_locs[key] = _mark(value_node, self.filename)
        return result

    def _text(self, value: str, node: yaml.ScalarNode) -> Text:
        text = Text(value)
        text.loc = _mark(node, self.filename)
        text.block_indent = None
        if node.style == "|":
            text.block_indent = self._block_indent(node.start_mark.line + 1)
            text.loc = Location(self.filename, node.start_mark.line + 2, text.block_indent + 1)
            return text
        raw = self.text[node.start_mark.index:node.end_mark.index]
        if node.style == ">":  # folded: the content starts on the next line
            first = raw.find("\n") + 1
            raw, line, col = raw[first:], node.start_mark.line + 2, 1
        elif node.style in ("'", '"'):
            raw, line, col = raw[1:], node.start_mark.line + 1, node.start_mark.column + 2
        else:
            line, col = node.start_mark.line + 1, node.start_mark.column + 1
        if raw[:len(value)] != value:  # escapes or folding moved characters
            text.positions = _align(value, raw, line, col)
            if text.positions:
                text.loc = Location(self.filename, *text.positions[0])
        else:
            text.loc = Location(self.filename, line, col)
        return text

    def _block_indent(self, first_line: int) -> int:
        for line in self.lines[first_line:]:
            if line.strip():
                return len(line) - len(line.lstrip(" "))
        return 0


def parse_yaml(text: str, filename: str) -> Any:
    """Parse YAML text into a located tree; YAML errors become RuleErrors."""
    remember_source(filename, text)
    _check_brackets(text, filename)
    try:
        node = _composed(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Location(filename, mark.line + 1, mark.column + 1) if mark else None
        raise RuleError(f"YAML syntax: {exc.problem or exc.context}", loc) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow (a control character)
        raise RuleError(f"YAML: the character {chr(exc.character)!r} is not allowed in a YAML file",
                        _position(filename, text, exc.position)) from None
    except yaml.YAMLError as exc:
        raise RuleError(f"YAML: {exc}", Location(filename, 1, 1)) from None
    if node is None:
        raise RuleError("the file is empty", Location(filename, 1, 1))
    try:
        return _Builder(filename, text).build(node)
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        loc = Location(filename, mark.line + 1, mark.column + 1) if mark else None
        raise RuleError(f"YAML: {exc.problem}", loc) from None


@lru_cache(maxsize=16)
def _composed(text: str) -> yaml.Node | None:
    """YAML's tree of `text`, which the builder only reads: a base that several variants extend, or a file loaded
    again with other params, is composed once (the composer is most of a load's reading)."""
    loader = _RuleFileLoader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


MAX_BRACKETS = 128  # brackets open at once anywhere in a file: YAML's lists and mappings, and expressions' own
BRACKET = re.compile(r"[][(){}]")


def _check_brackets(text: str, filename: str) -> None:
    """Refuse a file with more than MAX_BRACKETS brackets open at once (counted in its text and strings alike),
    before YAML reads it: YAML's reader slows down with every bracket it is inside."""
    depth = 0
    for found in BRACKET.finditer(text):
        depth = depth + 1 if found.group() in "[({" else max(depth - 1, 0)
        if depth > MAX_BRACKETS:
            raise RuleError(f"more than {MAX_BRACKETS} brackets open at once: lists, mappings or expressions "
                            "nested too deeply", _position(filename, text, found.start()))


def _position(filename: str, text: str, index: int) -> Location:
    """The location of the character at `index` of `text`."""
    line = text.count("\n", 0, index) + 1
    return Location(filename, line, index - (text.rfind("\n", 0, index) + 1) + 1)


def read_rule_file(path: str | Path, most: int = MAX_BYTES) -> tuple[Map, int]:
    """Read one rule file (without resolving ``extends``) of at most `most` bytes; its tree and its size."""
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = file.read(most + 1)  # (no more: a file may be any size, or never end)
    except OSError as exc:
        raise RuleError(f"cannot read {path}: {exc.strerror}") from None
    if len(data) > most:
        raise RuleError(f"the file is too large: a rule file, with the files it extends, may have at most "
                        f"{MAX_BYTES:,} bytes", Location(str(path), 1, 1))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:  # where the first byte that is no UTF-8 is (the text before it decodes)
        before = data[:exc.start].decode("utf-8")
        remember_source(str(path), data.decode("utf-8", errors="replace"))
        raise RuleError(f"the file is not UTF-8 text: byte 0x{data[exc.start]:02x} cannot be read ({exc.reason})",
                        _position(str(path), before, len(before)),
                        hint="save it as UTF-8 (a rule file is UTF-8 text)") from None
    tree = parse_yaml(text, str(path))
    if not isinstance(tree, Map):
        raise RuleError("a rule file is a mapping of sections (game:, rules:, ...)",
                        location_of(tree, Location(str(path), 1, 1)))
    return tree, len(data)


# Sections whose entries are merged by name when a variant extends a base.
MERGED_SECTIONS = ("params", "zones", "state", "player_state", "moves", "functions", "cards", "players", "memory",
                   "phases", "bets")
# Sections whose entries merge field by field, and mappings inside them key by key: a
# variant names only what it changes (a param's default, a move's legality, one more
# card table).
DEEP_SECTIONS = ("params", "moves", "cards", "phases", "bets")


def load_tree(path: str | Path) -> Map:
    """Read a rule file and resolve its ``extends`` chain into one tree."""
    tree, size = read_rule_file(path)
    return _resolve(tree, Path(path), (), MAX_BYTES - size, None)


def _resolve(tree: Map, path: Path, seen: tuple[Path, ...], left: int, first: Location | None) -> Map:
    """`tree`, read from `path`, merged onto the bases it extends, which may have `left` bytes in all (`first`:
    where the file read first extends its base)."""
    base_name = tree.get("extends")
    if base_name is None:
        for key in ("override", "remove"):
            if key in tree:
                raise RuleError(f"'{key}' needs 'extends:' (it changes rules of a base file)", tree.key_loc(key))
        return tree
    if not isinstance(base_name, str):
        raise RuleError("'extends' takes the path of the base rule file", tree.loc("extends"))
    base_path = _resolved(path.parent / base_name)
    if base_name.isidentifier() and not is_file(base_path):
        base_path = _named_base(base_name, tree, path)
    if base_path in seen:
        raise RuleError(f"'extends' makes a cycle through {base_name}", tree.loc("extends"))
    if base_path.suffix not in (".yaml", ".yml"):
        raise RuleError(f"'extends' names a rule file (.yaml), not '{_shown(base_name)}'", tree.loc("extends"))
    if not is_file(base_path):
        folders = [path.parent, *(folder for folder in _shipped_bases(tree) if folder != path.parent)]
        known = [r.stem for f in folders for r in f.glob("*.yaml") if _resolved(r) != _resolved(path)]
        raise RuleError(f"base rule file '{_shown(base_name)}' not found", tree.loc("extends"),
                        hint=did_you_mean(base_name, known) or
                        f"paths are relative to {path.parent}; a name is a file beside it or a shipped one")
    first = first or tree.loc("extends")
    with contextlib.suppress(OSError):
        if base_path.stat().st_size > left:
            raise RuleError(f"this file and the files it extends come to more than {MAX_BYTES:,} bytes, the most a "
                            "rule file may have with its bases", first)
    base, size = _read_base(base_path, tree, left)
    base = _resolve(base, base_path, seen + (_resolved(path),), left - size, first)
    return merge_variant(base, tree)


def _shown(name: str) -> str:
    """A name from a file as an error message shows it: its control characters escaped."""
    return name if name.isprintable() else repr(name)[1:-1]


def _resolved(path: Path) -> Path:
    """`path` made absolute with its symbolic links followed; `path` itself where no file can be there (a NUL
    character in it, a loop of symbolic links: a name that a rule file gives is text from anywhere), which then is
    no file (is_file)."""
    try:
        return path.resolve()
    except (OSError, ValueError, RuntimeError):  # (a loop of links: RuntimeError before Python 3.13, then OSError)
        return path


def beside(name: str, where: Location | None) -> str:
    """The agent a file names (`players: ai:`, a strategy's `default:`), with each strategy file it names by a
    relative path, alone or as an option's value (`ismcts:policy=mine.yaml`), read from the folder of the file that
    wrote it, as `extends:` is, wherever the command runs; names and absolute paths as written."""
    agent, colon, options = name.partition(":")
    if where is None or agent == "python":  # (a Python bot: only the command line starts one)
        return name
    folder = Path(where.file).parent
    if not colon:
        return _path_beside(name, folder)
    return agent + colon + ",".join(f"{key.strip()}={_path_beside(value.strip(), folder)}" if eq else item
                                    for item in options.split(",") for key, eq, value in [item.partition("=")])


def _path_beside(text: str, folder: Path) -> str:
    """`text` read from `folder` where it is the relative path of a YAML file."""
    path = Path(text)
    return str(folder / path) if path.suffix in (".yaml", ".yml") and not path.is_absolute() else text


def written_as_strategy(tree: Map) -> bool:
    """Whether a file's tree is written as a strategy: memory, a default level, or rules that choose or observe."""
    rules = [r for key in ("rules", "override") if isinstance(found := tree.get(key), list) for r in found]
    return "memory" in tree or "default" in tree or \
        any(isinstance(r, Map) and ({"choose", "observe", "move"} & set(r)) for r in rules)


def _named_base(name: str, tree: Map, path: Path) -> Path:
    """The file that `extends: NAME` means: NAME.yaml beside the file, else the shipped one of that name (for a
    strategy, a level of the game it plays first: `extends: baseline` reads the same from any folder)."""
    paths = [_resolved(folder / f"{name}.yaml") for folder in [path.parent, *_shipped_bases(tree)]]
    return next((p for p in paths if is_file(p)), paths[-1])


def _shipped_bases(tree: Map) -> list[Path]:
    """The shipped folders a name in `extends:` is looked up in: a strategy's game's levels, then the rule files."""
    if written_as_strategy(tree) and isinstance(tree.get("game"), str):
        return [*strategy_folders(tree["game"]), RULESETS]
    return [RULESETS]


def _read_base(base_path: Path, variant: Map, left: int) -> tuple[Map, int]:
    """The base a variant extends, once it is known to be a rule file: YAML with 'game:' (or 'extends:').

    Until then nothing of it is quoted in an error, so that pointing
    'extends:' at some other file never shows that file's content.
    """
    where = variant.loc("extends")
    try:
        base, size = read_rule_file(base_path, left)
    except RuleError as error:
        at = f" (line {error.location.line})" if error.location else ""
        raise RuleError(f"the base '{variant['extends']}' is not a readable rule file{at}", where,
                        hint=f"check it on its own: naipes check {base_path}") from None
    if "game" not in base and "extends" not in base:  # a level of a strategy extends another: its root names the game
        raise RuleError(f"the base '{variant['extends']}' is not a rule file (it has no 'game:')", where)
    return base, size


def merge_variant(base: Map, variant: Map) -> Map:
    """Apply a variant onto its base.

    Mapping sections merge entry by entry; in ``params``, ``moves`` and
    ``cards`` mappings merge key by key at every depth (a variant changes only
    a default, a move's ``legal``, or adds one card table); lists and other
    values are replaced; ``rules`` are added,
    ``override`` replaces rules by name, ``remove`` deletes them by name; any
    other key replaces the base's.
    """
    merged = Map(base)
    merged.where, merged.key_locs, merged.value_locs = base.where, dict(base.key_locs), dict(base.value_locs)
    for key, value in variant.items():
        if key in ("extends", "override", "remove", "rules"):
            continue
        if key == "params" and isinstance(value, Map) and isinstance(base.get(key), Map):
            value = _spelled_out(value, base[key])
        if key in MERGED_SECTIONS and isinstance(value, Map) and isinstance(base.get(key), Map):
            value = merge_entries(base[key], value, deep=(key in DEEP_SECTIONS))
        elif key == "phases" and isinstance(value, Seq) and isinstance(base.get(key), Map):
            value = _reordered_phases(base[key], value)
        merged[key] = value
        merged.key_locs[key], merged.value_locs[key] = variant.key_loc(key), variant.loc(key)
    merged["rules"] = _merge_rules(base.get("rules") or Seq(), variant, merged)
    return merged


def _spelled_out(params: Map, base: Map) -> Map:
    """A variant's `name: value` over a base's param is its new default: the base's type, limits and doc
    still hold (and check the value)."""
    out = Map(params)
    out.where, out.key_locs, out.value_locs = params.where, dict(params.key_locs), dict(params.value_locs)
    for name, value in params.items():
        if not isinstance(value, (Map, Seq)) and isinstance(base.get(name), Map):
            spec = Map({"default": value})
            spec.where, spec.key_locs, spec.value_locs = params.loc(name), {}, {"default": params.loc(name)}
            out[name] = spec
    return out


WHOLE_ENTRIES = ("tables",)  # under these keys each entry is one definition: a variant's replaces the base's whole


def merge_entries(base: Map, extra: Map, deep: bool) -> Map:
    out = Map(base)
    out.where, out.key_locs, out.value_locs = extra.where, dict(base.key_locs), dict(base.value_locs)
    for key, value in extra.items():
        if deep and isinstance(value, Map) and isinstance(base.get(key), Map):
            value = merge_entries(base[key], value, deep=key not in WHOLE_ENTRIES)
        out[key] = value
        out.key_locs[key], out.value_locs[key] = extra.key_loc(key), extra.loc(key)
    return out


def _reordered_phases(base: Map, names: Seq) -> Map:
    """A variant's list of phase names over a base's mapping: the phases in the variant's order, each
    keeping the base's body (a new name has none)."""
    out = Map()
    out.where, out.key_locs, out.value_locs = names.where, {}, {}
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise RuleError("phases are names", names.loc(i))
        if name in out:
            raise RuleError(f"phase '{name}' is listed twice", names.loc(i), hint=f"first at {out.key_locs[name]}")
        out[name] = base.get(name)
        out.key_locs[name] = names.loc(i)
        out.value_locs[name] = base.loc(name) if name in base else names.loc(i)
    return out


def _rule_name(rule: Any) -> Any:
    return rule.get("name") if isinstance(rule, Map) else None


def _merge_rules(base_rules: Seq, variant: Map, merged: Map) -> Seq:
    """The base's rules with the variant's removed, overridden and added ones; a name that is not a
    rule's may be a phase step's (removed or overridden in `merged`'s phases)."""
    rules = Seq(base_rules)
    rules.where = getattr(base_rules, "where", variant.where)
    rules.item_locs = list(getattr(base_rules, "item_locs", []))
    names = [_rule_name(r) for r in rules]

    def missing(name: Any, loc: Location, what: str) -> RuleError:
        known = [str(n) for n in names if n] + list(_step_names(merged))
        if what == "remove":
            known += [str(v) for s in REMOVABLE_SECTIONS if isinstance(merged.get(s), Map) for v in merged[s]]
        things = "rule, phase step, variable or param" if what == "remove" else "rule or phase step"
        return RuleError(f"{what}: the base has no {things} named '{name}'", loc,
                         hint=did_you_mean(str(name), known))

    unknown: list[RuleError] = []
    removed = variant.get("remove") or Seq()
    if not isinstance(removed, Seq):
        raise RuleError("'remove' takes a list of names", variant.loc("remove"))
    for i, name in enumerate(removed):
        if not isinstance(name, str):
            raise RuleError("'remove' lists names of rules, phase steps, variables or params", removed.loc(i))
        if name in names:
            at = names.index(name)
            del rules[at], rules.item_locs[at], names[at]
        elif not _replace_step(merged, name, None) and not _remove_declared(merged, name):
            unknown.append(missing(name, removed.loc(i), "remove"))
    overrides = variant.get("override") or Seq()
    if not isinstance(overrides, Seq):
        raise RuleError("'override' takes a list of rules, each with the name of the rule it replaces",
                        variant.loc("override"))
    for i, rule in enumerate(overrides):
        name = _rule_name(rule)
        if name is not None and not isinstance(name, str):
            raise RuleError("an override names what it replaces: 'name: TEXT'", rule.loc("name"))
        if name in names:
            at = names.index(name)
            rules[at], rules.item_locs[at] = _overridden(rules[at], rule), overrides.loc(i)
        elif not _replace_step(merged, name, rule):
            unknown.append(missing(name, overrides.loc(i), "override"))
    if unknown:  # (each name the base lacks, all at once, in the order written)
        unknown.sort(key=lambda e: (e.location.line, e.location.col) if e.location else (0, 0))
        raise unknown[0] if len(unknown) == 1 else RuleErrors(unknown)
    added = variant.get("rules") or Seq()
    if not isinstance(added, Seq):
        raise RuleError("'rules' takes a list of rules", variant.loc("rules"))
    for i, rule in enumerate(added):
        name = _rule_name(rule)
        if name is not None and name in names:
            raise RuleError(f"the base already has a rule named '{name}'", added.loc(i),
                            hint="use 'override:' to replace it, or choose another name")
        rules.append(rule)
        rules.item_locs.append(added.loc(i))
        names.append(name)
    return rules


PLACEMENT_KEYS = ("priority", "before", "after")


def _overridden(replaced: Any, rule: Any) -> Any:
    """An override changes the rule it replaces key by key: a key it gives replaces the base's, a key it gives as
    null (`when: ~`) is taken away, any other key stays the base's. It keeps the base's place (priority, before
    or after) unless it says one."""
    if not (isinstance(replaced, Map) and isinstance(rule, Map)):
        return rule
    kept = [k for k in replaced if k not in rule and not (k in PLACEMENT_KEYS and set(PLACEMENT_KEYS) & set(rule))]
    out = Map({k: replaced[k] for k in kept})
    out.where = rule.where
    out.key_locs = {k: replaced.key_loc(k) for k in kept}
    out.value_locs = {k: replaced.loc(k) for k in kept}
    for key, value in rule.items():
        if value is not None:
            out[key], out.key_locs[key], out.value_locs[key] = value, rule.key_loc(key), rule.loc(key)
    return out


REMOVABLE_SECTIONS = ("state", "player_state", "params")  # what `remove:` deletes by name, besides rules, steps


def _remove_declared(merged: Map, name: Any) -> bool:
    """Delete a state or player variable, or a param, that the variant does not use (False if there is none of
    that name)."""
    for section in REMOVABLE_SECTIONS:
        variables = merged.get(section)
        if isinstance(variables, Map) and name in variables:
            kept = Map({k: v for k, v in variables.items() if k != name})
            kept.where, kept.key_locs, kept.value_locs = variables.where, dict(variables.key_locs), \
                dict(variables.value_locs)
            merged[section] = kept
            return True
    return False


def _phase_steps(merged: Map) -> list[tuple[Any, Seq]]:
    """(phase, its enter steps) of every phase with a list of enter steps."""
    phases = merged.get("phases")
    if not isinstance(phases, Map):
        return []
    return [(p, body["enter"]) for p, body in phases.items()
            if isinstance(body, Map) and isinstance(body.get("enter"), Seq)]


def _step_names(merged: Map) -> list[str]:
    return [str(name) for _, steps in _phase_steps(merged) for step in steps if isinstance(step, Map) for name in step]


def _replace_step(merged: Map, name: Any, rule: Map | None) -> bool:
    """Change the enter step `name` key by key by an override entry (`rule`: name, when, then, doc), or delete it
    (None).
    False if no phase has that step. The merged tree's phases are copied, never the base's changed."""
    for phase, steps in _phase_steps(merged):
        at = next((i for i, step in enumerate(steps) if isinstance(step, Map) and name in step), None)
        if at is None:
            continue
        new_steps = Seq(steps)
        new_steps.where, new_steps.item_locs = steps.where, list(steps.item_locs)
        if rule is None:
            del new_steps[at], new_steps.item_locs[at]
        else:
            extra = set(rule) - {"name", "when", "then", "doc"}
            if extra:
                key = sorted(extra)[0]
                raise RuleError(f"'{key}' is not a key of a phase step ('{name}' is a step of phase '{phase}')",
                                rule.key_loc(key), "a step has when, then and doc")
            base = steps[at][name]
            if not isinstance(base, Map):  # `- name: actions`: its actions are its `then`
                base = _located_map({"then": base}, steps[at], value_at=steps[at].loc(name))
            body = _overridden(base, _without_name(rule))
            new_steps[at] = _located_map({name: body}, rule, key_at=rule.key_loc("name"), value_at=rule.where)
        phases = merged["phases"]
        body = _located_map(dict(phases[phase]), phases[phase])
        body["enter"] = new_steps
        new_phases = _located_map(dict(phases), phases)
        new_phases[phase] = body
        merged["phases"] = new_phases
        return True
    return False


def _without_name(rule: Map) -> Map:
    return _located_map({k: v for k, v in rule.items() if k != "name"}, rule)


def _located_map(items: dict[Key, Any], like: Map, key_at: Location | None = None,
                 value_at: Location | None = None) -> Map:
    """A Map of `items` with the locations `like` has for them (or the given ones for every key)."""
    out = Map(items)
    out.where = like.where
    out.key_locs = {k: key_at or like.key_loc(k) for k in items}
    out.value_locs = {k: value_at or like.loc(k) for k in items}
    return out
