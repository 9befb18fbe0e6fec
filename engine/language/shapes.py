"""The shape of a file, checked against the vocabulary: no value of the wrong shape ends in a traceback.

Every value a rule file or a strategy file holds has the shape its key's entry in
:mod:`naipes.language.vocabulary` gives (text, a number, a list of texts, a
mapping of names to expressions, ...). :func:`shape_errors` walks a loaded file
against that table and says, with its location, every value of another shape.
The section readers report the shapes they expect in their own words (which
know what the value is for); :func:`shapes_checked` stands behind them, so that
a value of a shape a reader did not foresee (a list where a name belongs) is a
located error, never a traceback. Keys the vocabulary does not know are left to
the readers (they suggest the key meant), and so are the finer checks within a
shape (a value among its choices, a name that is an identifier).

>>> from naipes.language.loader import parse_yaml
>>> from naipes.language.vocabulary import RULE_FILE
>>> [e.message for e in shape_errors(parse_yaml("game: g\\nparams: {n: {type: [int]}}", "f.yaml"), RULE_FILE)]
["'type' of 'params.n' must be text"]
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import Location, NaipesError, RuleError, RuleErrors
from .loader import Map, Seq, location_of
from .vocabulary import Entries, ListOf, Record, Shape, Value

# What each kind of scalar value of the vocabulary accepts, and how a message names it.
KINDS: dict[str, tuple[type, ...]] = {"text": (str,), "int": (int,), "number": (int, float), "bool": (bool,),
                                     "null": (type(None),)}
KIND_WORDS = {"text": "text", "int": "a whole number", "number": "a number", "bool": "true or false",
              "null": "null"}


def shape_errors(tree: Map, shape: Record) -> list[RuleError]:
    """Every value of `tree` (a loaded file) whose shape is not the one `shape` gives its key, located."""
    errors: list[RuleError] = []
    _check_record(tree, shape, (), errors)
    return errors


@contextmanager
def shapes_checked(tree: Map, shape: Record) -> Iterator[None]:
    """Read `tree` in the block; a fault that is not a located error, where `tree` holds values of the wrong
    shape, is those values' located errors instead."""
    try:
        yield
    except NaipesError:
        raise
    except Exception:
        misshapen = shape_errors(tree, shape)
        if not misshapen:
            raise  # (a bug in Naipes: the file is well shaped)
        raise RuleErrors(misshapen) from None


def describe(shape: Shape) -> str:
    """`shape` in words, for a message."""
    if isinstance(shape, Value):
        return " or ".join(dict.fromkeys(KIND_WORDS[k] for k in shape.kinds))
    if isinstance(shape, ListOf):
        return f"a list ({describe(shape.item)} each)"
    if isinstance(shape, Entries):
        return "a mapping (name: value)"
    if isinstance(shape, Record):
        return f"a mapping of {', '.join(sorted(shape.fields))}"
    return " or ".join(dict.fromkeys(describe(option) for option in shape.options))


def _scalar_fits(value: Any, kinds: tuple[str, ...]) -> bool:
    if isinstance(value, bool):  # (a bool is an int to Python, not to the vocabulary)
        return "bool" in kinds
    return any(isinstance(value, KINDS[kind]) for kind in kinds)


def _check(value: Any, shape: Shape, path: tuple[object, ...], where: Location, errors: list[RuleError]) -> None:
    if isinstance(shape, Value):
        if not _scalar_fits(value, shape.kinds):
            _wrong(value, shape, path, where, errors)
    elif isinstance(shape, ListOf):
        if not isinstance(value, Seq):
            _wrong(value, shape, path, where, errors)
            return
        for i, item in enumerate(value):
            _check(item, shape.item, (*path, i), _item_location(value, i, where), errors)
    elif isinstance(shape, Entries):
        if not isinstance(value, Map):
            _wrong(value, shape, path, where, errors)
            return
        for key, item in value.items():
            _check(item, shape.value, (*path, key), value.loc(key), errors)
    elif isinstance(shape, Record):
        if not isinstance(value, Map):
            _wrong(value, shape, path, where, errors)
            return
        _check_record(value, shape, path, errors)
    else:  # Either: the first option whose outer kind fits (a mapping: with the keys it requires, if one has them)
        # says what the value must be inside
        fitting = [option for option in shape.options if _outer_fits(value, option)]
        if not fitting:
            _wrong(value, shape, path, where, errors)
            return
        chosen = next((option for option in fitting if _has_required(value, option)), fitting[0])
        _check(value, chosen, path, where, errors)


def _check_record(value: Map, shape: Record, path: tuple[object, ...], errors: list[RuleError]) -> None:
    if path and not (shape.base and shape.base in value):  # (a file's own, such as 'game', its reader says; a
        for key in shape.required:                          # variant may take them from its base)
            if key not in value:
                errors.append(RuleError(f"{_named(path)} needs '{key}'", value.where))
    for key, item in value.items():
        field = shape.fields.get(key) if isinstance(key, str) else None
        if field is not None:  # (an unknown key is the readers' to report, with the key meant)
            _check(item, field.shape, (*path, key), value.loc(key), errors)


def _has_required(value: Any, shape: Shape) -> bool:
    """Whether `value` is a mapping with every key the record `shape` requires (True for any other shape)."""
    return not isinstance(shape, Record) or (isinstance(value, Map) and all(key in value for key in shape.required))


def _outer_fits(value: Any, shape: Shape) -> bool:
    """Whether `value` is of `shape`'s outer kind (a scalar of its kinds, a list, a mapping)."""
    if isinstance(shape, Value):
        return _scalar_fits(value, shape.kinds)
    if isinstance(shape, ListOf):
        return isinstance(value, Seq)
    if isinstance(shape, (Entries, Record)):
        return isinstance(value, Map)
    return any(_outer_fits(value, option) for option in shape.options)


def _item_location(items: Seq, i: int, where: Location) -> Location:
    locations = getattr(items, "item_locs", None)
    return locations[i] if locations and i < len(locations) else location_of(items, where)


def _wrong(value: Any, shape: Shape, path: tuple[object, ...], where: Location, errors: list[RuleError]) -> None:
    errors.append(RuleError(f"{_named(path)} must be {describe(shape)}", location_of(value, where)))


def _named(path: tuple[object, ...]) -> str:
    """How a message names the value at `path`: 'type' of 'params.n', or 'zones'."""
    *owner, last = [str(p) if not isinstance(p, int) else f"item {p + 1}" for p in path]
    return f"'{last}' of '{'.'.join(owner)}'" if owner else f"'{last}'"
