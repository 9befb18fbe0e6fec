"""Not a benchmark: the generated modules of the shipped files, dumped to compare the compiler before and after.

The compiler's rewrites that must not change what it writes (issue 37: a typed tree between the parse and the
Python) are checked by dumping the source the linker compiles (naipes.language.linker.module_source, before the
optimiser) with each line's origin, for every shipped rule file and strategy, before and after:

    .venv/bin/python benchmarks/generated_code.py dump /tmp/before       # (on the old commit)
    .venv/bin/python benchmarks/generated_code.py dump /tmp/after
    .venv/bin/python benchmarks/generated_code.py compare /tmp/before /tmp/after
    .venv/bin/python benchmarks/generated_code.py compare --ast /tmp/before /tmp/after

`dump --compiled` dumps what the linker compiles instead, after the optimiser: the module's syntax tree written
back as Python (ast.unparse), then each statement's kind and origin. A pass moved from the optimiser to the
compiler's own tree (issue 37) changes the source the linker is given, never what it compiles.

`--ast` compares what the modules mean rather than their text: each module's syntax tree (without positions), and
the origin of each statement in it (what it is, where in the rule file), so that a change of layout alone (a
statement written on two lines, brackets around a comparison) is no difference. It reads `dump --compiled` folders
too (their text is already written from a syntax tree: the difference is only that positions are not compared).

The test suite's own rule files are dumped too when it runs with NAIPES_DUMP_GENERATED=DIR (tests/conftest.py:
each module's source and origins, and each list of errors a rule file gets, in a file named by its hash);
`compare` compares two such folders as sets, and shows the nearest counterpart of what differs.
"""
from __future__ import annotations

import argparse
import ast
import difflib
import hashlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_text(source: str, origins: dict[int, tuple]) -> str:
    """A module's source followed by each line's origin (what it is, where in the rule file)."""
    where = "".join(f"# {line}: {what} @ {location}\n" for line, (what, location) in sorted(origins.items()))
    return source + "# origins\n" + where


def text_name(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def compiled_text(tree: ast.Module, origins: dict[int, tuple]) -> str:
    """A compiled module as Python, followed by each statement's kind and origin in the order ast.walk visits them."""
    statements = [f"# {type(node).__name__} {origins.get(node.lineno)}" for node in ast.walk(tree)
                  if isinstance(node, ast.stmt)]
    return ast.unparse(tree) + "\n# origins\n" + "\n".join(statements) + "\n"


def dump(folder: Path, compiled: bool = False) -> None:
    """Every shipped rule file's and strategy's generated module into `folder`, one file each (`compiled`: as the
    linker compiles it, after the optimiser)."""
    import builtins

    from naipes import load_program
    from naipes.language import linker
    from naipes.language.strategies import compile_strategy, strategy_game

    folder.mkdir(parents=True, exist_ok=True)
    captured: list[str] = []
    original = linker.module_source
    last_origins: list[dict[int, tuple]] = [{}]

    def capturing(defs: list) -> tuple[str, dict, object]:
        source, origins, facts = original(defs)
        last_origins[0] = origins
        if not compiled:
            captured.append(module_text(source, origins))
        return source, origins, facts

    def compiling(tree: object, name: str, mode: str) -> object:
        if isinstance(tree, ast.Module):
            captured.append(compiled_text(tree, last_origins[0]))
        return builtins.compile(tree, name, mode)  # type: ignore[call-overload]
    linker.module_source = capturing  # type: ignore[assignment]
    if compiled:
        linker.compile = compiling  # type: ignore[attr-defined]
    games = {}
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        captured.clear()
        games[path.stem] = load_program(path)
        (folder / f"{path.stem}.py").write_text(captured[-1])
    for path in sorted((ROOT / "strategies").glob("*/*.yaml")):
        captured.clear()
        compile_strategy(path, games[strategy_game(path)])
        (folder / f"strategy_{path.parent.name}_{path.stem}.py").write_text(captured[-1])
    print(f"{len(list(folder.glob('*.py')))} modules in {folder}")


def meaning(text: str) -> str:
    """A dumped module as its syntax tree without positions, then each statement's kind and origin, in the order
    ast.walk visits them (a list of errors as it is; a compiled dump's statements are already so)."""
    source, found, where = text.partition("# origins\n")
    if not found:
        return text
    tree = ast.parse(source)
    if not re.match(r"# \d+: ", where):
        return ast.dump(tree, indent=1) + "\n" + where  # (a compiled dump: its statements' origins as they are)
    origins = dict(line[2:].split(": ", 1) for line in where.splitlines())
    statements = [f"{type(node).__name__} {origins.get(str(node.lineno))}" for node in ast.walk(tree)
                  if isinstance(node, ast.stmt)]
    return "\n".join([ast.dump(tree, indent=1), *statements]) + "\n"


def compare(before: Path, after: Path, by_meaning: bool = False) -> int:
    """0 when the two folders hold the same files with the same texts (or meanings); else what differs, with a
    diff. Files named by their hash (a test run's) are matched by content, not by name."""
    read = meaning if by_meaning else (lambda text: text)
    old = {p.name: read(p.read_text()) for p in before.glob("*.py")}
    new = {p.name: read(p.read_text()) for p in after.glob("*.py")}
    if by_meaning and any(len(name) == 19 for name in old):  # (hash names: key them by their meaning instead)
        old, new = ({text_name(text) + ".py": text for text in side.values()} for side in (old, new))
    differing = sorted(name for name in old.keys() & new.keys() if old[name] != new[name])
    only_old, only_new = sorted(old.keys() - new.keys()), sorted(new.keys() - old.keys())
    for name in differing:
        print(f"--- {name} differs")
        print("".join(list(difflib.unified_diff(old[name].splitlines(True), new[name].splitlines(True),
                                                "before", "after"))[:60]))
    if only_old or only_new:
        print(f"{len(only_old)} files only before, {len(only_new)} only after")
    for name in only_old[:5]:  # (files named by their hash: show the nearest counterpart)
        nearest = max(only_new, key=lambda other: difflib.SequenceMatcher(None, old[name], new[other]).quick_ratio(),
                      default=None)
        print(f"--- {name} (before) against {nearest} (after)")
        if nearest is not None:
            print("".join(list(difflib.unified_diff(old[name].splitlines(True), new[nearest].splitlines(True),
                                                    "before", "after"))[:60]))
    same = len(old.keys() & new.keys()) - len(differing)
    print(f"{same} identical, {len(differing)} differ, {len(only_old)} only before, {len(only_new)} only after")
    return 1 if differing or only_old or only_new else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    commands = parser.add_subparsers(dest="command", required=True)
    dumping = commands.add_parser("dump", help="write every shipped file's generated module into FOLDER")
    dumping.add_argument("--compiled", action="store_true",
                         help="what the linker compiles (after the optimiser), not the source it is given")
    dumping.add_argument("folder", type=Path, metavar="FOLDER", help="made if missing; one .py file per module")
    comparing = commands.add_parser("compare", help="compare two dumped folders (exit 1 when they differ)")
    comparing.add_argument("--ast", action="store_true",
                           help="compare what the modules mean (syntax trees and origins), not their text")
    comparing.add_argument("before", type=Path, metavar="BEFORE")
    comparing.add_argument("after", type=Path, metavar="AFTER")
    arguments = parser.parse_args(argv)
    if arguments.command == "dump":
        dump(arguments.folder, compiled=arguments.compiled)
        return 0
    for folder in (arguments.before, arguments.after):
        if not folder.is_dir():
            parser.error(f"{folder} is not a folder of dumped modules")
    return compare(arguments.before, arguments.after, by_meaning=arguments.ast)


if __name__ == "__main__":
    sys.exit(main())
