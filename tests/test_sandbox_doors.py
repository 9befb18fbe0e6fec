"""Every door: whatever name a file declares, wherever it declares it, reaches nothing outside the language.

A rule file's names become attributes only behind the engine's prefix (naipes.program.attribute), and the
values its code holds are the language's own (no generator is ever a value; functions never enter the game's
state). This tries the class of attack, not one instance: every attribute name of every kind of object a
value could lead to (generators, frames, code, functions, types, modules, exceptions and tracebacks, the
built-in collections and numbers, the engine's own classes), declared in every place a file declares a name
that code reads as an attribute (a card attribute, a card table, a player variable, a per-player zone, a
record's field, a fact's field, a strategy's per-player memory) and in the places that become keys (state
variables, global zones, params, functions and their arguments, moves, rules, phases, stages, views, a
strategy's memory). For each name, either the file gets a located error, or code reading `value.NAME` on
every kind of value the language makes gives that value's own declared field, or a located error: never
another object.

The quick run tries a seeded sample of the names in each place; the slow run tries them all.
"""
from __future__ import annotations

import asyncio
import os
import random
import sys
import types
from pathlib import Path

import pytest

from naipes import load_program
from naipes.agents.registry import RandomAgent, load_strategy, strategy_agent
from naipes.errors import NaipesError, RuleError, RuleErrors
from naipes.language.compiler import declared_name_problem, identifier_problem
from naipes.language.parser import statement_words
from naipes.library.builtins import BUILTINS
from naipes.program import ATTRIBUTE_PREFIX, CardBase, FactBase, PlayerBase, Program, attribute
from naipes.runtime.agenda import Agenda
from naipes.runtime.game import Game, play_game
from naipes.runtime.memory import Memory
from naipes.runtime.zones import Zone

from helpers import yaml_text

QUICK_SAMPLE = int(os.environ.get("NAIPES_DOORS_SAMPLE", "40"))  # names per place in the quick run


def _generator():
    yield 1


async def _coroutine() -> None:
    return None


def _traceback() -> types.TracebackType:
    try:
        raise ValueError("x")
    except ValueError as exc:
        assert exc.__traceback__ is not None
        return exc.__traceback__


def door_names() -> list[str]:
    """Every attribute name of every kind of object a value could lead to, sorted."""
    coroutine = _coroutine()
    coroutine.close()
    samples = [_generator(), (n for n in ()), coroutine, sys._getframe(), _generator.__code__, _generator, len,
               [].append, "".format, type, object, types, os, asyncio, ValueError("x"), _traceback(), property(),
               0, 0.5, 1j, True, None, "", b"", [], (), {}, set(), frozenset(), range(1), slice(1), iter([]),
               {}.items(), NotImplemented, Ellipsis, Memory, Game, Program, Agenda, Zone, PlayerBase, CardBase,
               FactBase]
    names: set[str] = set()
    for sample in samples:
        names.update(dir(sample))
    return sorted(names)


DOORS = door_names()


# (A name the language itself gives a meaning, a built-in such as `count` or `players`, or a statement's first
# word such as `announce`, is left out: a file cannot take it for a variable, which its own located error says.)
LANGUAGE_NAMES = {*BUILTINS, *statement_words(), "players", "player", "phase", "stage", "options", "me", "trick",
                  "exists", "values_of", "deck", "discard", "total", "rank", "take", "turn"}


def accepted(name: str, owner: str | None) -> bool:
    """Whether the language takes `name` as a name of `owner`'s (a card's or a player's attribute), or at all."""
    if owner is None:
        return identifier_problem(name, "name") is None
    return declared_name_problem(name, "name", owner) is None


def sample(names: list[str], place: str, full: bool) -> list[str]:
    return names if full else sorted(random.Random(place).sample(names, min(QUICK_SAMPLE, len(names))))


# Where a name becomes an attribute of some object: the rule file declaring `names` there, and how code
# names an object that has them (`HOLDER`, an expression over the probe's locals).
def rule_file(place: str, names: list[str]) -> dict:
    tree: dict = {"game": "doors", "players": 2, "zones": {"deck": {}},
                  "cards": {"attributes": {"rank": [1, 2]}, "start": "deck"},
                  "records": {"box": ["a", "b"]}, "facts": {"fact": ["a", "b"]}, "state": {"done": False},
                  "setup": "assert fact(a=1, b=2)",
                  "rules": [{"name": "finish", "when": "not done", "then": "done = True\nend game"}]}
    if place == "card attribute":
        tree["cards"]["attributes"].update({n: [n] for n in names})
    elif place == "card table":
        tree["cards"]["tables"] = {n: {"of": "rank", "values": {1: 10}, "default": 0} for n in names}
    elif place == "player variable":
        tree["player_state"] = {n: 7 for n in names}
    elif place == "per-player zone":
        tree["zones"].update({n: {"per_player": True} for n in names})
    elif place == "record field":
        tree["records"]["doors"] = names
    elif place == "fact field":
        tree["facts"]["doors"] = names
        tree["setup"] += f"\nassert doors({', '.join(f'{n}=1' for n in names)})"
    return tree


ATTRIBUTE_PLACES = {"card attribute": "card", "card table": "card", "player variable": "player",
                    "per-player zone": "player", "record field": None, "fact field": None}

# Values the language makes, as functions of the rule file (each takes no argument): every kind of value
# code can hold, including functions (a lambda, a built-in, one given back by a function).
MAKERS = {
    "number": "1", "fraction": "0.5", "text": "'text'", "truth": "True", "none": "None", "list": "[1, 2]",
    "tuple": "(1, 2)", "set": "{1, 2}", "map": "{1: 2}", "comprehension": "[c for c in deck]",
    "generator expression": "(c for c in deck)", "players": "players", "player": "players[0]",
    "card": "all_cards()[0]", "zone": "deck", "hand": "players[0].hand", "lambda": "lambda x: x",
    "built-in": "len", "record": "box(a=1, b=2)", "fact": "first(fact)", "range": "range(2)",
    "sorted": "sorted(players)", "enumerate": "enumerate([1])", "zip": "zip([1], [2])",
}


def probing_file(place: str, names: list[str]) -> dict:
    """The rule file declaring `names` at `place`, with a probe function per name (`probe_I(x)`: x.NAME) and
    a function per kind of value (`make_KIND()`)."""
    tree = rule_file(place, names)
    tree["zones"].setdefault("hand", {"per_player": True})
    tree["functions"] = {f"probe_{i}(x)": f"x.{name}" for i, name in enumerate(names)}
    tree["functions"].update({f"make_{i}()": text for i, text in enumerate(MAKERS.values())})
    if place == "record field":
        tree["functions"][f"make_{len(MAKERS)}()"] = f"doors({', '.join('1' for _ in names)})"
    elif place == "fact field":
        tree["functions"][f"make_{len(MAKERS)}()"] = "first(doors)"
    return tree


LANGUAGE_VALUES = (int, float, str, bool, type(None), list, tuple, set, frozenset, dict, CardBase, PlayerBase, Zone,
                   FactBase)


def language_value(value: object, program: Program) -> bool:
    """Whether `value` is one of the language's own: a plain value, a collection of them, a card, player, zone,
    record or fact, a function the rule file wrote, or a built-in it may name."""
    if isinstance(value, LANGUAGE_VALUES):
        items = value.items() if isinstance(value, dict) else value if isinstance(value, (list, tuple, set,
                                                                                          frozenset)) else ()
        return all(language_value(item, program) for item in items)
    if isinstance(value, types.FunctionType) and value.__code__.co_filename in program.code_names:
        return True  # a lambda or function of the rule file
    return any(value is builtin for name, builtin in program.namespace.items() if name.startswith("B_"))


def probe(place: str, names: list[str], tmp_path: Path) -> list[str]:
    """Every problem found reading each of `names` (declared at `place`) on every kind of value."""
    path = tmp_path / "doors.yaml"
    path.write_text(yaml_text(probing_file(place, names), width=10_000))
    program = load_program(path)
    game = Game(program, 0, players=2)
    game.start()
    memory = game.memory
    namespace = program.namespace
    problems = []
    values = {}
    for i, kind in enumerate([*MAKERS, "value with the names"]):
        if f"F_make_{i}" in namespace:
            with program.located():
                values[kind] = namespace[f"F_make_{i}"](memory, memory.vars)
    assert isinstance(values["generator expression"], list), "a generator expression is a list when it is a value"
    for i, name in enumerate(names):
        read = namespace[f"F_probe_{i}"]
        for kind, value in values.items():
            try:
                with program.located():
                    found = read(memory, memory.vars, value)
            except NaipesError:
                continue
            except Exception as exc:  # noqa: BLE001 (what the test looks for)
                problems.append(f"{place} {name!r} on a {kind}: {type(exc).__name__}: {exc}")
                continue
            owned = hasattr(value, attribute(name))
            if not owned or not language_value(found, program):
                problems.append(f"{place} {name!r} on a {kind} gave {found!r}")
    return problems


def run_place(place: str, tmp_path: Path, full: bool) -> None:
    owner = ATTRIBUTE_PLACES[place]
    names = [n for n in DOORS if accepted(n, owner) and n not in LANGUAGE_NAMES | {"a", "b", "hand", "done"}]
    problems = probe(place, sample(names, place, full), tmp_path)
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("place", ATTRIBUTE_PLACES)
def test_a_sample_of_doors_in_each_place_leads_nowhere(place: str, tmp_path: Path) -> None:
    run_place(place, tmp_path, full=False)


@pytest.mark.slow
@pytest.mark.parametrize("place", ATTRIBUTE_PLACES)
def test_every_door_in_each_place_leads_nowhere(place: str, tmp_path: Path) -> None:
    run_place(place, tmp_path, full=True)


def test_only_the_languages_own_values_have_attributes_behind_the_prefix() -> None:
    """No object a value could lead to but the language's own cards, players and zones (their id, name, index,
    owner) has an attribute behind the engine's prefix: what makes every other door shut."""
    prefixed = {name for name in DOORS if name.startswith(ATTRIBUTE_PREFIX)}
    assert prefixed == {attribute(n) for n in ("id", "name", "index", "owner")}
    assert all(any(hasattr(kind, name) for kind in (CardBase, PlayerBase, Zone)) for name in prefixed)


@pytest.mark.parametrize("place", ATTRIBUTE_PLACES)
def test_names_the_language_refuses_get_a_located_error(place: str, tmp_path: Path) -> None:
    """A door name the language does not take (a private name, a language attribute such as a player's index)
    is refused where it is declared, with its location."""
    owner = ATTRIBUTE_PLACES[place]
    refused = [n for n in DOORS if not accepted(n, owner)]
    assert refused
    for name in sample(refused, place, full=False)[:8]:
        path = tmp_path / "refused.yaml"
        path.write_text(yaml_text(rule_file(place, [name]), width=10_000))
        with pytest.raises((RuleError, RuleErrors)) as caught:
            load_program(path)
        assert ":" in str(caught.value).splitlines()[0], f"{name!r} at {place}: not located"


# Places where a declared name becomes a key or a prefixed name, never an attribute: each must load and play.
OWN_NAMES = {"keys", "deck", "rank", "total", "play", "finish"}  # (the names keyed_file gives things itself)


def keyed_names() -> list[str]:
    return [n for n in DOORS if accepted(n, None) and n not in LANGUAGE_NAMES and n not in OWN_NAMES]


def keyed_file(names: list[str]) -> dict:
    """A game with params (names 0-9), global zones (10-19), state variables (20-39), stages (40-44),
    functions named and taking arguments alike (45-54), views (55-59), moves (60-64) and rules (65-69), whose
    setup adds every param, variable, function and zone up into `total`."""
    params, zones, state, stages = names[:10], names[10:20], names[20:40], names[40:45]
    functions, views, moves, rules = names[45:55], names[55:60], names[60:65], names[65:70]
    return {"game": "keys", "players": 2,
            "params": {n: {"type": "int", "default": 1} for n in params},
            "zones": {"deck": {}, **{n: {} for n in zones}},
            "cards": {"attributes": {"rank": [1, 2]}, "start": "deck"},
            "state": {**{n: 2 for n in state}, "total": 0},
            "phases": {"play": {"stages": stages}},
            "functions": {f"{n}({n})": f"{n} + 1" for n in functions},
            "views": {n: {"value": "total"} for n in views},
            "moves": {n: {"choose": "c in deck"} for n in moves},
            "setup": "total = sum([" + ", ".join([*params, *state, *(f"{n}(1)" for n in functions),
                                                  *(f"len({n})" for n in zones)]) + "])",
            "rules": [{"name": n, "when": "False"} for n in rules] + [{"name": "finish", "then": "end game"}]}


@pytest.mark.parametrize("full", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_names_that_become_keys_are_only_keys(full: bool, tmp_path: Path) -> None:
    names = keyed_names()
    chunks = [(names + names[:69])[i:i + 70] for i in range(0, len(names), 70)]  # (the last filled from the first)
    assert chunks
    for chunk in chunks if full else chunks[:2]:
        path = tmp_path / "keys.yaml"
        path.write_text(yaml_text(keyed_file(chunk), width=10_000))
        game = Game(load_program(path), 0, players=2)
        game.start()
        assert game.memory.vars["total"] == 10 * 1 + 20 * 2 + 10 * 2  # params, state, functions (zones are empty)


def test_a_strategy_memory_named_like_a_door_is_its_own(tmp_path: Path) -> None:
    """A strategy's memory, per player or not, is kept by name: any name it may take reads only itself."""
    names = keyed_names()[:60]
    game_path = tmp_path / "g.yaml"
    game_path.write_text(yaml_text({
        "game": "g", "players": 2, "zones": {"deck": {}, "discard": {}}, "cards": {"attributes": {"rank": [1, 2]}},
        "moves": {"take": {"choose": "c in deck", "then": "move c to discard"}},
        "rules": [{"name": "ask_take", "when": "len(deck) > 0", "then": "ask players[0] to take"},
                  {"name": "finish", "when": "len(deck) == 0", "then": "end game"}]}, width=10_000))
    program = load_program(game_path)
    per_player, plain = names[:30], names[30:]
    strategy = tmp_path / "s.yaml"
    strategy.write_text(yaml_text({
        "game": "g", "memory": {**{n: {"init": 0, "per_player": True} for n in per_player}, **{n: 0 for n in plain}},
        "rules": [{"name": "take_any", "move": "take", "choose": "first(options)",
                   "then": "".join(f"players[0].{n} = players[0].{n} + 1\n" for n in per_player)
                   + "".join(f"{n} = {n} + 1\n" for n in plain)}]}, width=10_000))
    agent = strategy_agent(load_strategy(strategy, program), 0)
    result = play_game(program, [agent, RandomAgent(1)], seed=3)
    assert result.winners is not None
