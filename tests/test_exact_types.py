"""The types the tree proves exact, declared in the generated module (naipes.language.exact).

A declaration is a promise Cython takes at its word (a local declared `bool` is a C truth value, one declared
`list` is exactly a list), so these tests check both sides: a local is declared only where every value it is given
is proven of the type and, for a bool, set before every read; and, over games of every shipped rule file and
strategy, each declared local holds a value of exactly its type every time it is seen.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from naipes import RandomAgent, load_program
from naipes.agents.registry import load_strategy, strategy_agent
from naipes.language import builder, linker, strategies
from naipes.language import nodes as n
from naipes.language.codecheck import GeneratedCodeError, check_generated
from naipes.language.exact import exact_locals
from naipes.language.strategies import strategy_game
from naipes.runtime.game import Game

from helpers import RULESETS, STRATEGIES, run, shipped, write_rules

TYPES = {"bool": bool, "list": list}


def declared(source: str) -> dict[str, dict[str, str]]:
    """Each function of a generated module -> its declared locals -> their types."""
    return {function.name: {node.target.id: node.annotation.id for node in ast.walk(function)
                            if isinstance(node, ast.AnnAssign)}
            for function in ast.parse(source).body if isinstance(function, ast.FunctionDef)}


@pytest.fixture
def modules(monkeypatch) -> dict[str, dict[str, dict[str, str]]]:
    """The declarations of every module compiled while the test runs, by the file name its code carries."""
    found: dict[str, dict[str, dict[str, str]]] = {}
    sources: list[str] = []
    write, compile_module = linker.module_source, linker.compile_module

    def writing(defs):
        source, origins, facts = write(defs)
        sources.append(source)
        return source, origins, facts

    def compiling(defs, sym, path, *args, **kwargs):
        module = compile_module(defs, sym, path, *args, **kwargs)
        found[module.code_names[0]] = declared(sources[-1])
        return module
    monkeypatch.setattr(linker, "module_source", writing)
    for module in (builder, strategies):  # (each calls the linker's by a name of its own)
        monkeypatch.setattr(module, "compile_module", compiling)
    return found


def locals_of(tmp_path, modules, actions: str, name: str = "rule_then") -> dict[str, str]:
    """The declared locals of the action block `actions` (a rule's `then`) in a small game."""
    text = f"""\
        game: t
        players: 2
        state: {{n: 3, out: 0, xs: "[1, 2]", got: "[]"}}
        rules:
          - name: act
            when: out == 0
            then: |
{''.join(' ' * 14 + line + chr(10) for line in actions.splitlines())}
              out = 1
              end game
        """
    load_program(write_rules(tmp_path, text, "g.yaml", ""))
    (module,) = modules.values()
    found = next(found for function, found in module.items() if function.startswith(name))
    return {local.removeprefix("v_"): kind for local, kind in found.items()}


def test_a_local_is_declared_where_every_value_it_is_given_is_proven_of_its_type(tmp_path, modules):
    found = locals_of(tmp_path, modules, """\
let b = n > 2
let c = not b
let d = b and (n == 3 or c)
let e = bool(xs)
let l = [x for x in xs if x > 1]
let m = list(xs)
let f = b if c else False
let s = sorted(xs)
let i = n + 1
let p = xs[0] > 0 and xs
let q = xs
let r = n > 2
r = len(xs)
let z = False
z = r
got = [b, c, d, e, l, m, f, s, i, p, q, r, z]""")
    assert found == {"b": "bool", "c": "bool", "d": "bool", "e": "bool", "f": "bool", "l": "list", "m": "list"}


def test_a_bool_is_declared_only_where_it_is_set_before_every_read():
    # (a rule file's `let` is seen only after it, in its block: the engine's own locals are what this guards)
    true, false, read, set_ = n.Constant(True), n.Constant(False), n.local, n.set_local
    generator = n.Comprehension("generator", read("e"), [n.ForClause(["y"], read("xs"), None)])
    generator.lazy = True
    body: list[n.Stmt] = [
        n.If(read("t"), [set_("a", true), set_("b", true)], [n.Branch(None, [set_("a", false)])]),
        n.If(read("t"), [set_("c", true)], [n.Branch(read("u"), [set_("c", false)]),
                                             n.Branch(None, [set_("c", true), set_("b", false)])]),
        n.Loop(["x"], read("xs"), [n.Do(read("b")), set_("b", n.Not(read("x"))), n.Do(read("b"))]),
        set_("d", true), set_("e", false),
        n.Return(n.ListExpr([read("a"), read("c"), n.Lambda(["k"], read("d")), generator]))]
    found = exact_locals(n.Definition("f", ("xs", "t", "u"), body, "a test"))
    assert found == {"a": "bool", "c": "bool"}  # b: read in the loop before it is set; d, e: read in closures


def test_a_local_bound_otherwise_than_by_a_plain_assignment_is_never_declared(tmp_path, modules):
    found = locals_of(tmp_path, modules, """\
let a, b = [True, False]
let c = True
c += 1
for d in [True]:
    got = [d]
got = [a, b, c, [e for e in [True]]]""")
    assert found == {}


def test_the_code_check_lets_through_only_the_declarations_the_compiler_writes():
    check_generated("def F_f(M, V):\n    v_x: bool = V['x'] > 1\n    v_y: list = []\n    return v_x\n", set())
    for bad in ("v_x: int = 1", "v_x: bool", "x: bool = True", "v_x: B_os = 1", "v_x: list[int] = []",
                "(v_x): bool = True", "v_x.a_y: bool = True"):
        with pytest.raises(GeneratedCodeError):
            check_generated(f"def F_f(M, V):\n    {bad}\n", {"a_y"})


def games() -> list[tuple[Path, Path | None]]:
    """Every shipped rule file played by random seats, and every shipped strategy's game played by it."""
    return [(path, None) for path in sorted(RULESETS.glob("*.yaml"))] + \
        [(Path(shipped(strategy_game(path))), path) for path in sorted(STRATEGIES.glob("*/*.yaml"))]


@pytest.mark.slow
def test_every_declared_local_holds_exactly_its_type_in_games_of_every_shipped_file(modules):
    """A trace of every line the generated functions run, in games of every shipped file, reading each declared
    local there: each holds a value of exactly the type declared (or is not set yet, where the line comes before
    its first assignment)."""
    seen: dict[str, int] = {}
    wrong: list[str] = []
    unset = object()

    def each_line(frame, event, arg):
        for local, kind in modules[frame.f_code.co_filename][frame.f_code.co_name].items():
            value = frame.f_locals.get(local, unset)
            if value is not unset:
                seen[local] = seen.get(local, 0) + 1
                if type(value) is not TYPES[kind]:
                    wrong.append(f"{frame.f_code.co_name}: {local} = {value!r}, declared {kind}")
        return each_line

    def each_call(frame, event, arg):
        functions = modules.get(frame.f_code.co_filename)
        return each_line if functions and functions.get(frame.f_code.co_name) else None

    for rules, strategy in games():
        program = load_program(rules)
        seats = program.players[2]
        for seed in range(2):
            agents = [RandomAgent(seed * 10 + k) for k in range(seats)]
            if strategy is not None:
                agents[0] = strategy_agent(load_strategy(strategy, program), seed)
            sys.settrace(each_call)
            try:
                run(Game(program, seed), agents, limit=150)
            finally:
                sys.settrace(None)
    assert not wrong, wrong[:5]
    assert len(seen) > 20, seen  # (the trace saw declared locals of many functions set)
