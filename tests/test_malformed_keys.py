"""Every key of a rule or strategy file, given a value of the wrong shape, is a located error (or loads).

Where the fuzzer (test_fuzz.py) mutates files at random, this goes over them systematically: every key at
every depth of a rule file and of a strategy file (and the first item of every list) receives, in turn, each
value of a set of wrong shapes: a list, a mapping, a number, true, null, an empty text, a text that is no
name, a deeply nested list and a long text. Loading must succeed or raise a RuleError that says where
(file:line:col): never a traceback. The quick run gives each place of a small game and of a strategy one wrong
shape in turn; the slow run every key of the small game every shape, and each place of the vocabulary in the
shipped rule files and strategies one shape in turn.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from naipes import load_program
from naipes.agents.registry import load_strategy
from naipes.errors import NaipesError, RuleError, RuleErrors
from naipes.language import vocabulary

from helpers import RULESETS, STRATEGIES, yaml_text

ROOT = Path(__file__).resolve().parent.parent
NESTED: list = [1]
for _ in range(20):
    NESTED = [NESTED]
WRONG = {"list": [1, [2]], "mapping": {"a": 1, "b": [1]}, "number": 7, "truth": True, "null": None, "empty": "",
         "no name": "1 bad-name", "nested": NESTED, "long": "x" * 5_000}


def paths(tree: object, prefix: tuple = ()) -> Iterator[tuple]:
    """Every key path of a YAML tree (lists: their first item only)."""
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield (*prefix, key)
            yield from paths(value, (*prefix, key))
    elif isinstance(tree, list) and tree:
        yield (*prefix, 0)
        yield from paths(tree[0], (*prefix, 0))


def replaced(tree: object, path: tuple, value: object) -> object:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(tree, dict):
        return {k: replaced(v, rest, value) if k == head else v for k, v in tree.items()}
    assert isinstance(tree, list)
    return [replaced(v, rest, value) if i == head else v for i, v in enumerate(tree)]


def outcome(load, path: Path) -> str | None:
    """None if loading either succeeds or fails with a located RuleError; else what went wrong.

    The error may be located in a file the game extends (beside it): a variant that makes a value of the
    wrong type is refused where its base uses that value."""
    try:
        load(path)
    except (RuleError, RuleErrors) as exc:
        first = str(exc).splitlines()[0]
        located = first.startswith(str(path.parent)) and first.count(":") >= 3
        return None if located else f"unlocated: {first[:200]}"
    except NaipesError as exc:  # a param or game error: located by its own message, or said plainly
        return None if str(exc) else "an empty error"
    except Exception as exc:  # noqa: BLE001 (what the test looks for)
        return f"{type(exc).__name__}: {str(exc)[:200]}"
    return None


def check_every_key(source: Path, load, tmp_path: Path, tried: set | None = None) -> list[str]:
    """Problems of `source` with each key given each wrong shape. With `tried`, each place of the vocabulary
    (a key's path with the file's own names as *, in a file that extends another or not) is tried once, with
    one wrong shape in turn: a place already in `tried` is skipped, and the place added."""
    tree = yaml.safe_load(source.read_text(encoding="utf-8"))
    problems = []
    target = tmp_path / source.name  # (the same name: a variant's `extends` and a strategy's `game` still hold)
    kinds = list(WRONG)
    for path in paths(tree):
        if tried is not None:
            place = ("extends" in tree, *(k if isinstance(k, int) or k in WORDS else "*" for k in path))
            if place in tried:
                continue
            tried.add(place)
            kinds = [list(WRONG)[len(tried) % len(WRONG)]]
        for kind in kinds:
            target.write_text(yaml_text(replaced(tree, path, WRONG[kind]), allow_unicode=True, width=10_000))
            problem = outcome(load, target)
            if problem:
                problems.append(f"{source.name} {'.'.join(map(str, path))} = {kind}: {problem}")
    return problems


def _words(shape: object) -> Iterator[str]:
    """Every key the vocabulary names (a section, a field), at any depth."""
    if isinstance(shape, vocabulary.Record):
        for key, field in shape.fields.items():
            yield key
            yield from _words(field.shape)
    elif isinstance(shape, vocabulary.Either):
        for option in shape.options:
            yield from _words(option)
    elif isinstance(shape, vocabulary.ListOf | vocabulary.Entries):
        yield from _words(shape.item if isinstance(shape, vocabulary.ListOf) else shape.value)


WORDS = {*_words(vocabulary.RULE_FILE), *_words(vocabulary.STRATEGY_FILE)}


def load_rule_file(path: Path) -> None:
    load_program(path)


def strategy_loader(game: str):
    program = load_program(RULESETS / f"{game}.yaml")
    return lambda path: load_strategy(path, program)


def test_every_place_of_a_small_game_refuses_a_wrong_shape_with_a_location(tmp_path: Path) -> None:
    problems = check_every_key(ROOT / "examples" / "high_card.yaml", load_rule_file, tmp_path, tried=set())
    assert not problems, "\n".join(problems[:20])


@pytest.mark.slow
def test_every_key_of_a_small_game_refuses_every_wrong_shape_with_a_location(tmp_path: Path) -> None:
    problems = check_every_key(ROOT / "examples" / "high_card.yaml", load_rule_file, tmp_path)
    assert not problems, "\n".join(problems[:20])


def test_every_place_of_a_strategy_refuses_a_wrong_shape_with_a_location(tmp_path: Path) -> None:
    source = STRATEGIES / "pocha" / "baseline.yaml"
    problems = check_every_key(source, strategy_loader("pocha"), tmp_path, tried=set())
    assert not problems, "\n".join(problems[:20])


# The slow run goes over every shipped file, each place of the vocabulary once, with one wrong shape in turn
# (every shape at every key of them all is 13,400 loads at about 0.15 to 0.4 s each). The files are taken from the
# smallest up: a place is tried in the smallest file that has it, where a load takes least.
@pytest.mark.slow
def test_every_kind_of_key_of_the_shipped_games_refuses_wrong_shapes(tmp_path: Path) -> None:
    for base in RULESETS.glob("*.yaml"):  # (a variant extends its base by name: found beside it)
        (tmp_path / base.name).write_text(base.read_text(encoding="utf-8"), encoding="utf-8")
    tried: set = set()
    problems = [problem for source in sorted(RULESETS.glob("*.yaml"), key=lambda path: path.stat().st_size)
                for problem in check_every_key(source, load_rule_file, tmp_path, tried)]
    assert not problems, "\n".join(problems[:20])


@pytest.mark.slow
def test_every_kind_of_key_of_the_shipped_strategies_refuses_wrong_shapes(tmp_path: Path) -> None:
    tried: set = set()
    problems = []
    # (the folders with strategy files: an installed package's, like any imported package, has a __pycache__ too)
    for folder in sorted({level.parent for level in STRATEGIES.glob("*/*.yaml")}):
        work = tmp_path / folder.name
        work.mkdir()
        for level in folder.glob("*.yaml"):  # (a level extends a lower one beside it)
            (work / level.name).write_text(level.read_text(encoding="utf-8"), encoding="utf-8")
        load = strategy_loader(folder.name)
        problems += [problem for source in sorted(folder.glob("*.yaml"))
                     for problem in check_every_key(source, load, work, tried)]
    assert not problems, "\n".join(problems[:20])
