"""Fixtures shared by the test files (plain helper functions are in helpers.py)."""
from __future__ import annotations

import gc
import os
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import write_rules

# Rule files' modules run as Python in the tests (a compile to C takes seconds: naipes.language.cmodules), except in
# tests/test_cmodules.py, which compiles; NAIPES_COMPILE=auto runs the whole suite compiled.
os.environ.setdefault("NAIPES_COMPILE", "never")

# The collector of a test process, tuned for a process that loads thousands of rule files: young collections less
# often, and a full one (a walk over every object the process holds: a million, with the parser's cache of parse
# trees and the programs the tests keep) after 50 middle ones rather than 10. Over the load-heavy tests (fuzz,
# malformed keys, CLIPS differential, goldens, schema, hostile files) a full collection ran 16 to 28 times a worker,
# and the collector took 14 % of its CPU; with these and the freeze below, none ran, and 4 to 5 %. What the tests
# check does not depend on it: a rule file's load holds the collector off and gives it back as it was
# (naipes.language.builder.collector_paused).
gc.set_threshold(20_000, 20, 50)


@pytest.fixture(autouse=True, scope="session")
def _run_in_an_empty_folder(tmp_path_factory: pytest.TempPathFactory):
    """The tests run in an empty folder, not the checkout: the command takes a game's short name for
    ./rulesets/NAME.yaml where there is one, before the shipped game, and the checkout's copy would stand in for the
    installed package's (logged by its path, where a shipped file is logged by its name)."""
    before = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("cwd"))
    yield
    os.chdir(before)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under -n, --dist loadgroup sends the tests of one xdist_group to one worker, which xdist learns from the group
    it writes into each test's id (test_x.py::test_y@group) on the worker. Where pytest ignores that write
    (pytest 9.2 with xdist 3.8: pytest-dev/pytest-xdist#1386) the group's tests spread over the workers and each
    makes the group's shared setup (test_fuzz.py's mutants: minutes of CPU): warn rather than run slowly unseen."""
    longest_first(items)
    if not getattr(config.option, "loadgroup", False):
        return
    lost = [item.nodeid for item in items if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
    if lost:
        warnings.warn(pytest.PytestWarning(
            f"--dist loadgroup: {len(lost)} tests of an xdist_group (the first {lost[0]}) will not share one worker: "
            f"pytest {pytest.__version__} ignores the group xdist writes into a test's id (pytest-xdist#1386); "
            "install the pytest the test extra names"), stacklevel=1)


def longest_first(items: list[pytest.Item]) -> None:
    """The test files with the most slow tests first, each file's tests together and in their order: xdist hands the
    tests out in this order as workers free up, so the run ends on short tests rather than on one worker finishing a
    long browser test (the last file by name) while the other waits."""
    by_file: dict[str, list[pytest.Item]] = {}
    slow: dict[str, int] = {}
    for item in items:
        file = item.nodeid.split("::")[0]
        by_file.setdefault(file, []).append(item)
        slow[file] = slow.get(file, 0) + (item.get_closest_marker("slow") is not None)
    items[:] = [item for file in sorted(by_file, key=lambda file: -slow[file]) for item in by_file[file]]


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the process holds once the tests are collected (modules, functions, the tests themselves) lives to its
    end: kept out of the collector's full walks (gc.freeze)."""
    gc.freeze()


@pytest.fixture
def rule_file(tmp_path: Path) -> Callable[..., Path]:
    """rule_file(TEXT, name="g.yaml", tail=""): TEXT dedented into a rule file in this test's tmp_path."""
    def write(text: str, name: str = "g.yaml", tail: str = "") -> Path:
        return write_rules(tmp_path, text, name, tail)
    return write


def _dump_generated(folder: Path) -> None:
    """NAIPES_DUMP_GENERATED=DIR: every module the tests' rule files compile to, and every list of errors a rule file
    gets, written into DIR, each in a file named by its hash (benchmarks/generated_code.py compares two such runs:
    the compiler's rewrites that must not change what it writes)."""
    import re
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from generated_code import module_text, text_name

    from naipes.language import builder, linker

    folder.mkdir(parents=True, exist_ok=True)
    source_of, raise_errors = linker.module_source, builder.Builder.raise_errors

    def write(text: str) -> None:  # (temporary folders named alike in every run)
        text = re.sub(r"/tmp/(pytest-of-[^/]+/pytest-\d+|tmp\w+)/", "/tmp/T/", text)
        (folder / f"{text_name(text)}.py").write_text(text)

    def capturing(defs: list) -> tuple[str, dict, object]:
        source, origins, facts = source_of(defs)
        write(module_text(source, origins))
        return source, origins, facts

    def raising(self: builder.Builder) -> None:
        try:
            raise_errors(self)
        except Exception as exc:
            write(f"# errors\n{exc}\n")
            raise
    linker.module_source = capturing  # type: ignore[assignment]
    builder.Builder.raise_errors = raising  # type: ignore[method-assign]


if os.environ.get("NAIPES_DUMP_GENERATED"):
    _dump_generated(Path(os.environ["NAIPES_DUMP_GENERATED"]))
