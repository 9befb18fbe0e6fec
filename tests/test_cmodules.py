"""A rule file's generated module compiled to C by Cython and cached by its content (naipes.language.cmodules).

The rest of the suite runs every module as Python (tests/conftest.py sets NAIPES_COMPILE=never: a compile takes
seconds); these tests compile, each into a cache folder of its own, and check that C plays as Python does.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
import types
from collections.abc import Callable
from pathlib import Path

import pytest

from naipes import RandomAgent, load_program, play_game
from naipes.errors import GameError
from naipes.language import cmodules
from naipes.runtime.game import Game

from helpers import RULESETS, STRATEGIES, shipped

pytest.importorskip("Cython", reason="the C modules need Cython: pip install 'naipes[fast]'")
pytestmark = pytest.mark.slow

FAULTY = """\
game: faulty
players: 1
state: {x: 0, out: 0}
functions:
  "depth(n)": "0 if n == 0 else 1 + depth(n - 1)"
  "share(n)": "n / x"
rules:
  - name: divide
    when: out == 0
    then: |
      out = share(depth(3))
      end game
"""


@pytest.fixture
def compiling(tmp_path, monkeypatch):
    """Modules compiled to C, into a cache folder of this test's own; returns the folder.

    The C compiler does not optimise (-O0, after the -O3 of Python's own flags): what the tests check is the C that
    Cython writes, which computes the same at every level of optimisation, and a large rule file compiles five
    times faster. (One test compiles with the flags users get: the compile reused by later processes.)"""
    return compile_into(tmp_path / "cache", monkeypatch)


def built(folder: Path) -> list[Path]:
    """The compiled modules in a cache folder (which any load may make: the parser keeps its tables there)."""
    return list(folder.glob("naipes_c_*"))


def compile_into(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`compiling`'s settings, into `folder`."""
    monkeypatch.setenv("CFLAGS", f"{os.environ.get('CFLAGS', '')} -O0".strip())  # (setuptools adds them last)
    monkeypatch.setenv("NAIPES_COMPILE", "auto")
    monkeypatch.setenv("NAIPES_CACHE", str(folder))
    monkeypatch.setattr(cmodules, "_loaded", {})  # (what an earlier test of this process imported)
    return folder


def load_twice(path, monkeypatch, params=None):
    """The rule file loaded as Python, then compiled to C."""
    monkeypatch.setenv("NAIPES_COMPILE", "never")
    python = load_program(path, params)
    monkeypatch.setenv("NAIPES_COMPILE", "auto")
    return python, load_program(path, params)


def generated_functions(program):
    return {name: value for name, value in program.namespace.items() if name.startswith("F_") or name[-1].isdigit()}


@pytest.mark.parametrize("ruleset, seeds", [("kuhn_poker", 30), ("leduc_poker", 30), ("pocha", 6), ("tute_cabrero", 6),
                                            ("chinchon", 6)])  # (the larger rule files: longer games, fewer)
def test_a_compiled_game_plays_every_seeded_game_as_python_does(compiling, monkeypatch, capfd, ruleset, seeds):
    python, in_c = load_twice(shipped(ruleset), monkeypatch)
    assert "compiling" in capfd.readouterr().err
    functions = generated_functions(in_c)
    assert functions and not any(isinstance(f, types.FunctionType) for f in functions.values() if callable(f))
    assert all(isinstance(f, types.FunctionType) for f in generated_functions(python).values() if callable(f))
    for seed in range(seeds):
        seats = python.players[2]  # (min, max, default)
        expected = play_game(python, [RandomAgent(seed + k) for k in range(seats)], seed)
        assert play_game(in_c, [RandomAgent(seed + k) for k in range(seats)], seed) == expected


def test_a_module_is_compiled_once_and_reused_by_later_processes_saying_so_once(compiling, tmp_path):
    path = tmp_path / "faulty.yaml"
    path.write_text(FAULTY, encoding="utf-8")
    load = f"from naipes import load_program; p = load_program({str(path)!r}); print(p.code_names[-1])"
    environment = {**os.environ, "NAIPES_COMPILE": "auto", "NAIPES_CACHE": str(compiling)}
    environment.pop("CFLAGS")  # (the flags users get: see compiling)
    runs = [subprocess.run([sys.executable, "-c", load], capture_output=True, text=True, env=environment, check=True)
            for _ in range(2)]
    assert "compiling" in runs[0].stderr and str(path) in runs[0].stderr
    assert runs[1].stderr == ""  # taken from the cache, silently
    assert runs[0].stdout == runs[1].stdout and runs[0].stdout.startswith("naipes_c_")
    assert len(list(compiling.glob("naipes_c_*"))) == 1


def failing(then: str) -> str:
    """A rule file whose one rule fails in `then` (on line 9)."""
    return ("game: faulty\nplayers: 1\nzones: {stock: {}}\nstate: {x: 0, out: 0, what: {init: 'None'}}\n"
            f"rules:\n  - name: fail\n    when: out == 0\n    then: |\n      {then}\n      end game\n")


@pytest.mark.parametrize("text, line", [
    (FAULTY, 6),  # the function that divides
    (failing("out = 1 if any(k / x > 1 for k in [1, 2]) else 2"), 9),  # (a loop in C)
    (failing("move [what] to stock"), 9)])  # (a call of the memory through C_call: it refuses)
def test_a_fault_in_compiled_code_is_located_where_python_locates_it(compiling, tmp_path, monkeypatch, text, line):
    path = tmp_path / "faulty.yaml"
    path.write_text(text, encoding="utf-8")
    errors = []
    for program in load_twice(path, monkeypatch):
        with pytest.raises(GameError) as caught:
            Game(program, 1).start()
        errors.append(caught.value)
    python, in_c = errors
    assert (in_c.message, in_c.location) == (python.message, python.location)
    assert in_c.location.file == str(path) and in_c.location.line == line, str(in_c)


def test_functions_that_reach_themselves_or_call_function_values_stay_python(compiling, tmp_path, monkeypatch):
    # C functions calling each other spend the C stack unchecked: recursion stays in Python's frames, which stop
    # at the recursion limit with a located error
    path = tmp_path / "recursive.yaml"
    path.write_text(textwrap.dedent("""\
        game: recursive
        players: 1
        state: {out: 0}
        functions:
          "down(n)": "0 if n == 0 else 1 + down(n - 1)"
          "ping(n)": "0 if n == 0 else pong(n - 1)"
          "pong(n)": "ping(n)"
          "twice(f, n)": "f(f(n))"
          "plain(n)": "n + 1"
        rules:
          - {name: deep, when: out == 0, then: "out = down(1000000)"}
        """), encoding="utf-8")
    _, program = load_twice(path, monkeypatch)
    kinds = {name: isinstance(program.namespace[f"F_{name}"], types.FunctionType)
             for name in ("down", "ping", "pong", "twice", "plain")}
    assert kinds == {"down": True, "ping": True, "pong": True, "twice": True, "plain": False}
    with pytest.raises(GameError) as caught:
        Game(program, 1).start()
    assert "too deeply" in caught.value.message and caught.value.location.file == str(path)


def test_a_module_that_cannot_be_compiled_runs_as_python_saying_why_once(compiling, tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("CC", "/bin/false")  # a C compiler that always fails
    path = tmp_path / "faulty.yaml"
    path.write_text(FAULTY.replace("faulty", "uncompiled"), encoding="utf-8")
    first = load_program(path)
    said = capfd.readouterr().err
    assert "could not compile" in said and "runs as Python" in said
    again = load_program(path)
    assert capfd.readouterr().err == ""  # remembered: not tried again
    for program in (first, again):
        assert len(program.code_names) == 1
        assert all(isinstance(f, types.FunctionType) for f in generated_functions(program).values() if callable(f))


def test_a_module_too_large_to_compile_runs_as_python_saying_so_once(compiling, tmp_path, monkeypatch, capfd):
    monkeypatch.setattr(cmodules, "C_SOURCE_LIMIT", 100)  # (FAULTY's module has some hundreds of characters)
    monkeypatch.setattr(cmodules, "_too_large", set())
    path = tmp_path / "large.yaml"
    path.write_text(FAULTY.replace("faulty", "large"), encoding="utf-8")
    first = load_program(path)
    said = capfd.readouterr().err
    assert "too large to compile to C" in said and "runs as Python" in said and "compiling" not in said
    again = load_program(path)
    assert capfd.readouterr().err == ""  # said once
    for program in (first, again):
        assert all(isinstance(f, types.FunctionType) for f in generated_functions(program).values() if callable(f))
    assert not list(compiling.glob(f"*{cmodules.EXT_SUFFIX}"))


def test_never_keeps_every_module_python(tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("NAIPES_COMPILE", "never")
    monkeypatch.setenv("NAIPES_CACHE", str(tmp_path / "cache"))
    program = load_program(shipped("kuhn_poker"))
    assert len(program.code_names) == 1 and not built(tmp_path / "cache")
    assert "compiling" not in capfd.readouterr().err


def test_a_load_that_asks_for_no_compile_gets_python_and_so_do_its_strategies(compiling):
    from naipes.agents.registry import load_strategy
    game = load_program(shipped("fichas"), to_c=False)
    strategy = load_strategy(STRATEGIES / "fichas" / "greedy.yaml", game)
    assert len(game.code_names) == 1 and len(strategy.program.code_names) == 1 and not built(compiling)
    compiled = load_program(shipped("fichas"))
    assert len(load_strategy(STRATEGIES / "fichas" / "greedy.yaml", compiled).program.code_names) == 2


def test_a_web_page_never_starts_a_compile_with_params_of_its_own(compiling):
    pytest.importorskip("starlette", reason="the web table needs the web extra")
    from naipes.web.app import create_app, new_table
    app = create_app({"fichas": RULESETS / "fichas.yaml"})
    assert len(new_table(app, "fichas", {"full": "true"}, ["human", "random"], 1).program.code_names) == 1
    assert not built(compiling)
    assert len(new_table(app, "fichas", {}, ["human", "random"], 1).program.code_names) == 2  # (the file's own)


def test_a_cached_file_that_cannot_be_loaded_is_said_once_and_the_file_runs_as_python(compiling, tmp_path):
    path = tmp_path / "faulty.yaml"
    path.write_text(FAULTY.replace("faulty", "unloadable"), encoding="utf-8")
    load = f"from naipes import load_program; print(len(load_program({str(path)!r}).code_names))"
    environment = {**os.environ, "NAIPES_COMPILE": "auto", "NAIPES_CACHE": str(compiling)}

    def run():
        return subprocess.run([sys.executable, "-c", load], capture_output=True, text=True, env=environment,
                              check=True)
    assert run().stdout == "2\n"
    [built] = compiling.glob("naipes_c_*")
    built.write_bytes(b"not a shared object")  # (a cache copied from another machine, a disk fault)
    broken, again = run(), run()
    assert "could not compile" in broken.stderr and "runs as Python" in broken.stderr and broken.stdout == "1\n"
    assert again.stderr == "" and again.stdout == "1\n"  # remembered


def test_code_that_others_could_have_put_in_the_cache_is_never_loaded(compiling, tmp_path):
    # a cache key is a content hash anyone can compute: a folder or a file others can write to could hold their
    # code under a rule file's key
    path = tmp_path / "faulty.yaml"
    path.write_text(FAULTY.replace("faulty", "planted"), encoding="utf-8")
    load = f"from naipes import load_program; print(len(load_program({str(path)!r}).code_names))"
    environment = {**os.environ, "NAIPES_COMPILE": "auto", "NAIPES_CACHE": str(compiling)}

    def run(umask=0o022):
        return subprocess.run([sys.executable, "-c", load], capture_output=True, text=True, env=environment,
                              check=True, preexec_fn=lambda: os.umask(umask))
    assert run(umask=0o002).stdout == "2\n"  # (a umask that leaves new files writable by the group)
    [built] = compiling.glob("naipes_c_*")
    assert built.stat().st_mode & 0o077 == 0 and compiling.stat().st_mode & 0o077 == 0
    assert run().stdout == "2\n"
    for unsafe, mode in ((compiling, 0o777), (compiling, 0o720), (built, 0o766)):
        unsafe.chmod(mode)
        refused = run()
        assert refused.stdout == "1\n", unsafe  # the module runs as Python
        assert f"not loaded from {unsafe}: others can write to it" in refused.stderr
        assert "compiling" not in refused.stderr and list(compiling.glob("naipes_c_*")) == [built]
        unsafe.chmod(0o700)
    assert run().stdout == "2\n"


def compiled(source: str, namespace: dict | None = None) -> tuple[dict, dict]:
    """`source` (functions of a generated module) compiled to C and run as Python: (the C module's names, the
    Python namespace, given `namespace`)."""
    import ast
    namespace = {} if namespace is None else namespace
    exec(compile(source, "<test>", "exec"), namespace)
    in_c = cmodules.c_module(source, ast.parse(source), namespace, "a test module")
    assert in_c is not None
    return in_c.names, namespace


GAME_VARIABLE_READS = "def F_get(M, V):\n    return V['x']\n" \
                      "def F_twice(M, V):\n    return (V['x'], M(V), V['x'])\n"
CONSTANT_INDEXES = "def F_first(M, V, v_x):\n    return v_x[0]\n" \
                   "def F_last(M, V, v_x):\n    return (v_x[-1], v_x[1])\n"
BIT_TESTS = "def F_bits(M, V, v_x):\n    if (v_x & 6):\n        return 1\n" \
            "    return (2 if (v_x & 9223372036854775808) else 3)\n" \
            "def F_other(M, V, v_x):\n    if (v_x & 6) == 0:\n        return 1\n"
MEMORY_CALLS = "def F_call(M, V, v_x):\n    return M.give(v_x, 1)\n"
BUILT_IN_CALLS = (
    "def F_f(M, V, v_xs):\n    v_out = []\n    for v_x in v_xs:\n        B_append(v_out, B_len(v_x))\n"
    "    return v_out, B_any((v > 1 for v in v_out)), B_all((v > 1 for v in v_out)), B_list(v_xs)\n"
    "def F_g(M, V, v_out, v_x):\n    B_append(v_out, v_x)\n    return B_len(v_out) == 2\n"
    # any() of a generator is a loop in C: an assignment inside it, a loop variable that shadows
    "def F_h(M, V, v_xs):\n    return B_any(((_t := v_x) > 1 for v_x in v_xs)), _t\n"
    "def F_s(M, V, v_x):\n    return B_all((v_x > 1 for v_x in [v_x, 3]))\n")
BUILT_INS = {"B_len": len, "B_append": list.append, "B_any": any, "B_all": all, "B_list": list}
ATTRIBUTE_READS = "def F_attr(M, V, v_o):\n    return v_o.a_x\n"
SENTINELS = "def F_memo(M, V, v_x):\n    _h0 = B_UNSET\n" \
            "    return [(_h0 if _h0 is not B_UNSET else (_h0 := M(v_x))) for _ in range(3)]\n" \
            "def F_best(M, V, v_items):\n    v___best = B_UNSET\n    for v_c in v_items:\n" \
            "        if v___best is B_UNSET:\n            v___best = v_c\n" \
            "    return (None if v___best is B_UNSET else v___best)\n"
COMPREHENSION_ASSIGNS = """\
def F_again(M, V, v_hands, v_hand):
    v_n = sum((B_len((_t := list(v_h))) + B_len(_t) for v_h in v_hands))
    return v_n + B_len((_t := list(v_hand)))
def F_shadowing(M, V, v_i):
    return [v_f for v_i in range(5) if (v_f := v_i)]
def F_nested(M, V):
    return [[(v_f := v_i) for v_i in range(3)] for v_i in range(2)]
def F_hoisted(M, V, v_i):
    _h = B_UNSET
    return [v_i for v_i in range(5) if (_h if _h is not B_UNSET else (_h := B_len(V)))]
"""
# locals declared with the types the tree proves (naipes.language.exact): a C truth value, exactly a list
DECLARED = """\
def F_declared(M, V, v_xs):
    v_seen: bool = False
    v_kept: list = []
    for v_x in v_xs:
        if v_x > 1:
            v_seen = True
            B_append(v_kept, v_x)
    v_every: bool = B_len(v_xs) == B_len(v_kept)
    return (v_seen, v_every, v_kept, (not v_seen) + v_every)
"""
# The tests that compare functions in C with Python on values of their own take them from one C module (a compile
# costs a second or more, whatever its size): each runs only its own source's functions, whose places of a read or
# a call remember only what that test gives them. A test that looks at a module as a whole (its direct calls
# counted) compiles its own.
SHARED = (GAME_VARIABLE_READS, CONSTANT_INDEXES, BIT_TESTS, MEMORY_CALLS, BUILT_IN_CALLS, ATTRIBUTE_READS, SENTINELS,
          COMPREHENSION_ASSIGNS, DECLARED)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., tuple[dict, dict]]:
    """shared(SOURCE, namespace=None): as compiled(SOURCE, namespace), SOURCE one of SHARED: its C functions taken
    from SHARED compiled once (with BUILT_INS and a B_UNSET) for the test module."""
    import ast
    with pytest.MonkeyPatch.context() as monkeypatch:
        compile_into(tmp_path_factory.mktemp("shared") / "cache", monkeypatch)
        in_c, _ = compiled("".join(SHARED), {**BUILT_INS, "B_UNSET": object()})

    def take(source: str, namespace: dict | None = None) -> tuple[dict, dict]:
        assert source in SHARED
        namespace = {} if namespace is None else namespace
        exec(compile(source, "<test>", "exec"), namespace)
        return {name: in_c[name] for name in cmodules.defined_names(ast.parse(source))}, namespace
    return take


def test_site_caches_keep_every_line_and_rewrite_only_prefixed_reads_and_memory_calls():
    from naipes.language.cslots import site_caches
    source = "def F_f(M, V, v_c, v_p):\n    M.set_attr(v_p, 'score', (v_c.a_rank +\n        v_p.a_hand.a_size))\n" \
             "    v_p.a_x = v_c.b_y\n    M.announce(*v_p.a_hand); M.end_game(winners=[v_p]); return M.rng, " \
             "M.give(1, [v_p]), M.set_var('x')\n"
    rewritten = site_caches(source, __import__("ast").parse(source))
    body = rewritten.split("\ncdef extern")[0]
    assert body.count("\n") == source.count("\n")  # (tracebacks of the C module name the Python module's lines)
    assert "B_slot(v_c, 'a_rank', " in body and "B_slot(B_slot(v_p, 'a_hand', " in body
    assert "), 'a_size', " in body and "v_p.a_x = v_c.b_y" in body  # a store, and an unprefixed read: as they were
    # the memory's calls, their arguments as they were: straight to the compiled runtime where it can be (cdirect),
    # else the method call
    assert "C_direct_set_attr_3(M, 'set_attr', 0, v_p, 'score', (B_slot(" in body
    assert "C_call2(M, 'give', 1, 1, [v_p])" in body and "C_call1(M, 'set_var', 2, 'x')" in body
    # unpacked or keyword arguments, and a read that is no call, stay Python's
    assert "M.announce(*B_slot(v_p, 'a_hand', " in body and "M.end_game(winners=[v_p])" in body
    assert "return M.rng, " in body


def test_site_caches_read_game_variables_by_name_through_one_place_per_name():
    from naipes.language.cslots import site_caches
    source = "def F_f(M, V, v_n):\n    V['x'] = V['trick'][0]\n    return B_slot(V['dealer'], 'a_hand', 0), " \
             "V[v_n], V['trick']\ndef F_g(M, V):\n    return V['dealer'].a_name, V[\"turn\"]\n"
    rewritten = site_caches(source, __import__("ast").parse(source))
    body = rewritten.split("\ncdef extern")[0]
    assert body.count("\n") == source.count("\n")
    assert "V['x'] = C_item(C_var(V, 'trick', 0), 0)" in body  # a store stays Python's
    assert "B_slot(C_var(V, 'dealer', 1), 'a_hand', 0), V[v_n], C_var(V, 'trick', 0)" in body  # a name read: Python's
    assert "B_slot(C_var(V, 'dealer', 1), 'a_name', " in body  # one place for a name
    assert 'V["turn"]' in body and "naipes_reads[2]" in rewritten  # (written some other way: Python's)


def test_a_compiled_read_of_a_game_variable_is_what_python_reads_as_the_variables_change(shared):
    # a read is remembered for its name with the dict's version tag: a change of the dict, another dict, a copy,
    # a name gone, a mapping that is not a dict: each is read again, as Python reads it
    names, namespace = shared(GAME_VARIABLE_READS)

    def both(name, V, M=None):
        python = namespace[name](M, V)
        assert names[name](M, V) == python
        return python

    first, second = {"x": 1}, {"x": 2}
    assert [both("F_get", V) for V in (first, second, first, second)] == [1, 2, 1, 2]
    first["x"] = 3
    assert both("F_get", first) == 3
    copy = dict(first)
    copy["x"] = 4
    assert (both("F_get", first), both("F_get", copy)) == (3, 4)
    for function in (names["F_twice"], namespace["F_twice"]):  # (the dict changed between two reads)
        V = {"x": 3, "y": 0}
        assert function(lambda V: V.update(x=5), V) == (3, None, 5)
        assert function(lambda V: V.pop("y"), V) == (5, 0, 5)
    assert both("F_get", first) == 3
    del first["x"]
    for function in (names["F_get"], namespace["F_get"]):
        with pytest.raises(KeyError, match="'x'"):
            function(None, first)
    first["x"] = 6

    class Logged(dict):
        def __getitem__(self, name):
            return ("logged", dict.__getitem__(self, name))

    assert (both("F_get", first), both("F_get", Logged(x=7)), both("F_get", first)) == (6, ("logged", 7), 6)


def test_a_compiled_read_by_a_constant_index_is_what_python_reads_whatever_the_value(shared):
    # `x[0]`, `x[-1]` are read in place for a tuple, a list and a zone (a subclass of list with list's `[]`), and
    # by Python's `[]` for anything else: a dict, a text, a subclass with a `[]` of its own, an index out of range
    from naipes.runtime.zones import Zone
    source = CONSTANT_INDEXES
    assert "C_item(v_x, 0)" in cmodules.c_source(source, __import__("ast").parse(source), {})
    names, namespace = shared(source)

    class Mine(list):
        def __getitem__(self, i):
            return ("mine", list.__getitem__(self, i))

    zone = Zone(["a", "b", "c"])
    values = [(1, 2, 3), [4, 5], zone, Mine([6, 7]), {0: "zero", -1: "minus", 1: "one"}, "text", range(3, 9),
              zone, Mine([8, 9]), [10, 11]]
    for name in ("F_first", "F_last"):
        assert [names[name](None, None, x) for x in values] == [namespace[name](None, None, x) for x in values]
    assert names["F_first"](None, None, zone) == "a" and names["F_first"](None, None, Mine([1])) == ("mine", 1)
    Zone.__getitem__ = lambda self, i: "changed"  # (the type changed: its `[]` is its own from now on)
    try:
        assert names["F_first"](None, None, zone) == namespace["F_first"](None, None, zone) == "changed"
    finally:
        del Zone.__getitem__
    assert names["F_first"](None, None, zone) == "a"
    for function in (names["F_first"], namespace["F_first"]):
        for empty, error in (((), IndexError), ([], IndexError), (Zone(), IndexError), ({}, KeyError),
                             (None, TypeError), (5, TypeError)):
            with pytest.raises(error):
                function(None, None, empty)
    for function in (names["F_last"], namespace["F_last"]):
        with pytest.raises(IndexError, match="list index out of range"):
            function(None, None, Zone(["only"]))


def test_a_compiled_module_keeps_its_own_sentinel_of_a_value_not_computed_yet(shared):
    # B_UNSET is a C variable of the C module's own (no lookup at each read): a remembered value is computed once,
    # when first needed, as in Python, whatever the name is given
    source = SENTINELS
    assert "cdef object B_UNSET = object()" in cmodules.c_source(source, __import__("ast").parse(source),
                                                                  {"B_UNSET": object()})
    names, namespace = shared(source, {"B_UNSET": object()})
    for function in (names["F_memo"], namespace["F_memo"]):
        calls: list[int] = []

        def doubled(x: int, calls: list[int] = calls) -> int:
            calls.append(x)
            return x * 2
        assert function(doubled, None, 4) == [8, 8, 8] and calls == [4]
    for items in ([], [3, 4], [None, 5]):
        assert names["F_best"](None, None, items) == namespace["F_best"](None, None, items)
    given = names["F_best"].__globals__
    was, given["B_UNSET"] = given["B_UNSET"], 3  # (the C module's name: not what its functions read)
    try:
        assert names["F_best"](None, None, [3, 4]) == 3
    finally:
        given["B_UNSET"] = was  # (the module is the other tests' too)


def test_a_compiled_test_of_bits_is_python_s_whatever_the_value(shared):
    # `if (v_x & MASK):` is tested on the int's low 64 bits in C: the same truth as Python's for every int,
    # however large or negative, and Python's own `&` for anything else
    source = BIT_TESTS
    assert "C_bits(v_x, 6, 6)" in cmodules.c_source(source, __import__("ast").parse(source), {})
    names, namespace = shared(source)

    class Anded:
        def __init__(self, value):
            self.value = value

        def __and__(self, mask):
            return self.value

    values = [0, 1, 2, 4, 7, 8, True, False, 1 << 63, (1 << 63) - 1, 1 << 70, (1 << 70) + 2, -1, -2, -8, -(1 << 70),
              Anded(0), Anded([]), Anded("yes")]
    assert [names["F_bits"](None, None, x) for x in values] == [namespace["F_bits"](None, None, x) for x in values]
    assert [names["F_bits"](None, None, x) for x in (2, 1 << 63, 1, -1 << 63)] == [1, 2, 3, 2]
    for function in (names["F_bits"], namespace["F_bits"]):
        with pytest.raises(TypeError, match="unsupported operand"):
            function(None, None, "text")
        with pytest.raises(ZeroDivisionError):
            function(None, None, Anded(type("Faulty", (), {"__bool__": lambda self: 1 // 0})()))
    assert [names["F_other"](None, None, x) for x in (0, 2)] == [namespace["F_other"](None, None, x) for x in (0, 2)]


def test_a_compiled_call_of_the_memory_is_what_python_calls_whatever_the_class(shared):
    # each place of a call remembers the last class it met and its function for the name: every other case
    # (another class, a class changed since, a function in the instance's own dict, a class of its own lookup)
    # is Python's call
    names, namespace = shared(MEMORY_CALLS)
    call = names["F_call"]
    assert not isinstance(call, types.FunctionType)

    class Plain:
        def give(self, x, y):
            return ("plain", x, y)

    class Other:
        __slots__ = ()

        def give(self, x, y):
            return ("other", x + y)

    class Own:
        def __init__(self):
            self.give = lambda x, y: ("own", x)

    class Looked:
        def __getattribute__(self, name):
            return (lambda x, y: ("looked up", y)) if name == "give" else object.__getattribute__(self, name)

    class Bound:
        give = staticmethod(lambda x, y: ("static", x))

    memories = [Plain(), Other(), Own(), Plain(), Looked(), Bound(), Other(), Plain()]
    for _ in range(3):
        assert [call(m, None, 2) for m in memories] == [namespace["F_call"](m, None, 2) for m in memories] == \
            [("plain", 2, 1), ("other", 3), ("own", 2), ("plain", 2, 1), ("looked up", 1), ("static", 2),
             ("other", 3), ("plain", 2, 1)]
    for function in (call, namespace["F_call"]):
        with pytest.raises(AttributeError):
            function(object(), None, 2)
        with pytest.raises(TypeError):
            function(Plain, None, 2)  # (the class itself: its function is called without an instance)
    Plain.give = lambda self, x, y: ("changed", x)  # the class changed: what was remembered of it no longer holds
    assert call(memories[0], None, 5) == ("changed", 5) == namespace["F_call"](memories[0], None, 5)


# how mypyc takes each declared type of a parameter: unchecked (an object), or checked and converted
DECLARED_KINDS = {"Any": "object", "PlayerBase": "object", "Zone": "object", "Zone | None": "object", "str": "str",
                  "str | None": "str?", "int": "int", "bool": "bool", "tuple[str, ...]": "tuple",
                  "tuple[str, ...] | None": "tuple?"}
RESULT_KINDS = {"None": "none", "bool": "bool", "Any": "object"}


def test_the_calls_made_straight_to_the_compiled_runtime_are_its_methods_as_declared():
    # a C module calls these compiled functions with its own checks of the arguments: each must be the method
    # as the runtime's source declares it, in the class that defines it and not overridden in the memory's
    import ast

    from naipes.language.cdirect import DIRECT, REQUIRED

    from helpers import ROOT
    classes = {}
    for path in ("engine/runtime/memory.py", "engine/library/limits.py"):
        for node in ast.parse((ROOT / path).read_text()).body:
            if isinstance(node, ast.ClassDef):
                classes[node.name] = {f.name: f for f in node.body if isinstance(f, ast.FunctionDef)}
    setup = ast.parse((ROOT / "setup.py").read_text())
    native = next(ast.literal_eval(n.value) for n in setup.body if isinstance(n, ast.Assign)
                  and getattr(n.targets[0], "id", "") == "NATIVE")
    assert not {"program.py", "runtime/zones.py"} & set(native)  # (PlayerBase, Zone: classes mypyc does not check)
    for method, direct in DIRECT.items():
        module, owner, name = direct.symbol.split("___")
        assert name == method and owner in ("Memory", "Budget")
        function = classes[owner][method]
        if owner != "Memory":
            assert method not in classes["Memory"]
        args = function.args
        assert not (args.vararg or args.kwarg or args.kwonlyargs) and args.args[0].arg == "self"
        defaults = [REQUIRED] * (len(args.args) - len(args.defaults)) + [ast.literal_eval(d) for d in args.defaults]
        declared = [(a.arg, DECLARED_KINDS[ast.unparse(a.annotation)], default)
                    for a, default in zip(args.args[1:], defaults[1:])]
        assert list(direct.params) == declared, method
        assert direct.result == RESULT_KINDS[ast.unparse(function.returns)], method


def compiled_runtime() -> bool:
    from naipes.runtime.memory import Memory
    return not isinstance(Memory.__dict__["set_var"], types.FunctionType)


DIRECT_CALLS = """\
def F_calls(M, V, v_items, v_each):
    v_a = M.charge(v_items)
    v_b = M.charge(v_items, v_each)
    M.spend(2)
    M.set_var('trump', v_b[0])
    M.entering_step('play', 'x')
    v_c = (M.contains(v_items[0], v_items), M.contains('x', v_items), M.contains(3, {3}), M.hashed((1, v_each)),
           M.weighed([v_items, v_items]), M.charge_sized('abc'), M.charge_sized(v_each))
    return v_a, v_b, M.in_phase(V['phase']), M.in_phase('nowhere', ('play',)), v_c, M.steps, V['trump']
def F_move(M, V, v_card, v_zone, v_bottom):
    M.move(v_card, v_zone, None, v_bottom)
def F_name(M, V, v_name):
    M.set_var(v_name, 1)
"""


def test_a_compiled_call_of_the_compiled_memory_is_what_python_calls(compiling, monkeypatch):
    monkeypatch.setenv("NAIPES_COMPILE", "never")  # (the game's own code as Python: only the module below in C)
    game = Game(load_program(shipped("pocha")), 1)
    game.start()
    monkeypatch.setenv("NAIPES_COMPILE", "auto")
    names, namespace = compiled(DIRECT_CALLS)
    module = next(m for m in cmodules._loaded.values() if "F_calls" in vars(m))
    linked = vars(module)["__naipes_direct__"]
    memories = [game.memory.clone(), game.memory.clone()]
    results = [f(m, m.vars, ["oros", "copas"], 3) for f, m in zip((names["F_calls"], namespace["F_calls"]), memories)]
    assert results[0] == results[1] and results[0][0] == ["oros", "copas"] and results[0][-1] == "oros"
    assert results[0][4] == (True, False, True, (1, 3), [["oros", "copas"]] * 2, "abc", 3)
    assert memories[0].steps == memories[1].steps and memories[0].dirty == memories[1].dirty
    # a memory of another class: the method call, as Python makes it
    assert linked(object()) == 0
    assert names["F_name"](types.SimpleNamespace(set_var=lambda name, value: None), None, "x") is None
    if not compiled_runtime():
        assert linked(game.memory) == 0  # (a Python runtime: every call is the method call)
        return
    assert linked(game.memory) == 10  # the calls go straight to the compiled functions (charge, spend, ...)
    # an argument that the compiled method's own checks refuse takes the method call, which says so
    hand, trick = game.memory.vars["players"][0].a_hand, game.memory.vars["trick"]
    with pytest.raises(TypeError):
        names["F_move"](game.memory, None, hand[0], trick, 1)  # (bottom: a bool)
    with pytest.raises(TypeError):
        names["F_calls"](game.memory, game.memory.vars, [], "3")  # (each: an int)
    with pytest.raises(TypeError):
        names["F_name"](game.memory, None, 3)  # (a variable's name: a text)
    names["F_move"](game.memory, None, hand[0], trick, True)
    assert trick[0] is not None and game.memory.where[trick[0]] == trick.slot


def test_python_s_own_functions_are_called_by_cython_s_names_in_place():
    import ast

    from naipes.language.cbuiltins import builtin_names
    source = "def F_f(M, V, v_xs):\n    B_append(v_xs, B_len(v_xs)); return B_any((B_x(v) for v in v_xs)), B_len\n"
    given = {"B_len": len, "B_append": list.append, "B_any": lambda xs: True, "B_x": abs}
    rewritten = builtin_names(source, ast.parse(source), given)
    body = rewritten.split("\ncdef ")[0]
    assert [len(line) for line in body.split("\n")] == [len(line) for line in source.split("\n")]  # (in place)
    # B_any is given another function, and B_x is no name of Python's: as they were
    assert "C_append(v_xs, len  (v_xs)); return B_any((B_x(v) for v in v_xs)), len  \n" in body


def test_compiled_built_in_calls_give_what_python_gives(shared):
    names, namespace = shared(BUILT_IN_CALLS, dict(BUILT_INS))
    for name, args in (("F_f", lambda: ([[1, 2], "abc", ()],)), ("F_f", lambda: ([],)), ("F_g", lambda: ([1], 2)),
                       ("F_g", lambda: ([], 2)), ("F_h", lambda: ([0, 2, 5],)), ("F_h", lambda: ([0, 1],)),
                       ("F_s", lambda: (0,)), ("F_s", lambda: (5,))):  # (new lists for each: F_g appends to its own)
        assert names[name](None, None, *args()) == namespace[name](None, None, *args())
    for bad in (([1],), ([[1], 3],)):  # a number has no length
        with pytest.raises(TypeError, match="has no len"):
            names["F_f"](None, None, *bad)
    with pytest.raises(TypeError):
        names["F_g"](None, None, (1,), 2)  # a tuple is no list to append to, in C as in Python
    with pytest.raises(TypeError):
        namespace["F_g"](None, None, (1,), 2)


def cython_c(source: str, folder: Path) -> str:
    """The C that Cython writes for a generated module's `source` (made ready for it as cmodules makes it)."""
    import ast
    pyx = folder / "module.pyx"
    pyx.write_text(cmodules.c_source(source, ast.parse(source), dict(BUILT_INS)), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "cython", "-3", str(pyx)], check=True, capture_output=True)
    return pyx.with_suffix(".c").read_text(encoding="utf-8")


def test_locals_declared_with_their_proven_types_are_c_truth_values_and_lists_computing_what_python_does(shared,
                                                                                                         tmp_path):
    names, namespace = shared(DECLARED, dict(BUILT_INS))
    for xs in ([], [1], [2, 3], [0, 5, 1], [True, 2.5]):
        got, expected = names["F_declared"](None, None, list(xs)), namespace["F_declared"](None, None, list(xs))
        assert got == expected and list(map(type, got)) == list(map(type, expected)) == [bool, bool, list, int]
    # what Cython makes of the declarations: the bools are C ints; without them, a comparison's is a Python object
    # (Cython infers a C truth value only for a local given nothing but True and False)
    c_file = cython_c(DECLARED, tmp_path)
    assert "int __pyx_v_v_seen;" in c_file and "int __pyx_v_v_every;" in c_file
    c_file = cython_c(DECLARED.replace(": bool", "").replace(": list", ""), tmp_path)
    assert "int __pyx_v_v_every;" not in c_file and "PyObject *__pyx_v_v_every" in c_file


def test_a_compiled_read_of_an_attribute_is_what_python_reads_whatever_the_class(shared):
    # each place of a read remembers the last class it met and where it keeps the attribute: every other case
    # (another class, a class changed since, a property, a slot not set, a class of its own lookup) is Python's
    names, namespace = shared(ATTRIBUTE_READS)
    get = names["F_attr"]
    assert not isinstance(get, types.FunctionType)

    class Slots:
        __slots__ = ("a_x",)

    class Shifted:
        __slots__ = ("a_w", "a_y", "a_x")  # (the same name at another offset)

    class Property:
        a_x = property(lambda self: "computed")

    class Looked:
        __slots__ = ("a_x",)

        def __getattribute__(self, name):
            return "looked up" if name == "a_x" else object.__getattribute__(self, name)

    def made(cls, value):
        thing = cls()
        if cls is not Property:
            object.__setattr__(thing, "a_x", value)
        return thing
    things = [made(Slots, 1), made(Shifted, 2), made(Property, None), made(Slots, 3), made(Looked, 4),
              made(Shifted, 5), made(Slots, 6)]
    for _ in range(3):
        assert [get(None, None, t) for t in things] == [namespace["F_attr"](None, None, t) for t in things] \
            == [1, 2, "computed", 3, "looked up", 5, 6]
    empty = Slots()
    for function in (get, namespace["F_attr"]):
        with pytest.raises(AttributeError):
            function(None, None, empty)
    assert get(None, None, things[0]) == 1
    Slots.a_x = property(lambda self: "changed")  # the class changed: what was remembered of it no longer holds
    assert get(None, None, things[0]) == "changed" == namespace["F_attr"](None, None, things[0])


def test_names_comprehensions_assign_are_bound_from_the_start_and_shadowed_reads_stay_python():
    import ast

    from naipes.language.cdefects import bind_at_entry, misread
    tree = ast.parse(COMPREHENSION_ASSIGNS)
    bound = bind_at_entry(COMPREHENSION_ASSIGNS, tree)
    assert bound.count("\n") == COMPREHENSION_ASSIGNS.count("\n")  # (the lines tracebacks name)
    assert "def F_again(M, V, v_hands, v_hand, *, _t=None):" in bound
    assert "def F_hoisted(M, V, v_i, *, _h=None):" in bound and "def F_nested(M, V, *, v_f=None):" in bound
    # Cython reads the function's name where an assignment inside the comprehension reads a loop variable that
    # shadows it (cython/cython#6547): such functions stay Python; a hoisted value reads no loop variable
    assert misread(tree, COMPREHENSION_ASSIGNS) == {"F_shadowing", "F_nested"}
    ast.parse(bound)


def test_a_compiled_comprehension_that_assigns_loses_nothing_and_computes_what_python_does(shared):
    # Cython's flow analysis misses an assignment made inside a comprehension: without the names bound from the
    # start, F_again lost one list a call (a hand copied by Chinchón's estimate: gigabytes over a tournament)
    names, namespace = shared(COMPREHENSION_ASSIGNS, {"B_len": len, "B_UNSET": object()})
    again = names["F_again"]
    assert not isinstance(again, types.FunctionType)
    assert isinstance(names["F_shadowing"], types.FunctionType)  # (kept Python)
    marker = object()
    hand = [marker] * 7
    # every copy of the hand that outlives its call holds 7 references to the marker (counted, not searched for
    # among every object of the process: seconds late in the suite); the lists made here form no cycle
    before = sys.getrefcount(marker)
    for _ in range(200):
        assert again(None, None, [hand, hand], hand) == namespace["F_again"](None, None, [hand, hand], hand) == 35
    assert sys.getrefcount(marker) == before
    for name, args in (("F_shadowing", (0,)), ("F_nested", ()), ("F_hoisted", (0,))):
        assert names[name](None, {"x": 1}, *args) == namespace[name](None, {"x": 1}, *args)


def test_the_cache_drops_what_it_has_not_used_for_long_and_keeps_to_its_size(compiling, tmp_path, monkeypatch):
    compiling.mkdir(mode=0o700)
    old, recent = compiling / "naipes_c_old.so", compiling / "naipes_c_recent.so"
    for file in (old, recent):
        file.write_bytes(b"x" * 1000)
    long_ago = time.time() - (cmodules.UNUSED_DAYS + 1) * 86_400
    os.utime(old, (long_ago, long_ago))
    path = tmp_path / "faulty.yaml"
    path.write_text(FAULTY, encoding="utf-8")
    load_program(path)  # a compile: the cache is pruned after it
    [built] = (f for f in compiling.glob("naipes_c_*") if f not in (old, recent))
    assert not old.exists() and recent.exists()
    monkeypatch.setattr(cmodules, "CACHE_BYTES", built.stat().st_size + 1500)  # room for one more file, not two
    path.write_text(FAULTY.replace("depth(3)", "depth(4)"), encoding="utf-8")  # (other code: another module)
    load_program(path)
    assert not recent.exists() and not built.exists()  # the least recently used go first
    assert len(list(compiling.glob("naipes_c_*"))) == 1  # the one just built is kept
