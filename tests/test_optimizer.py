"""The optimiser (naipes.language.passes) changes how fast rule files run, never what they compute.

Each test writes a rule file whose result is known from the language's
semantics, in a shape that one of the optimiser's passes rewrites (an inlined
function, a value remembered inside a comprehension, a function not charged a
step), and checks the result, the laziness of what was moved, and where a
fault is reported.
"""
from __future__ import annotations

import ast
import re

import pytest

from naipes import load_program
from naipes.errors import GameError
from naipes.language.codecheck import GeneratedCodeError, check_generated
from naipes.runtime.game import Game

from helpers import write_rules

FINISH = """
rules:
  - name: finish
    priority: -100
    when: "True"
    then: "end game"
"""


def run(tmp_path, text: str, seed: int = 0, finish: str = FINISH) -> Game:
    game = Game(load_program(write_rules(tmp_path, text, "g.yaml", finish)), seed)
    game.start()
    return game


def cards_in(zone: str) -> str:
    """The sections of a deck of ranks 1 to 3 that starts in `zone`, beside the other of two zones (`stock` and
    `table`) empty: a max or min over the empty one fails, so a test tells whether it was computed."""
    return (f"cards:\n  attributes: {{rank: [1, 2, 3]}}\n  start: {zone}\n"
            "zones:\n  stock: {visibility: public}\n  table: {visibility: public}\n")


def start_fault(tmp_path, text: str, finish: str = FINISH) -> GameError:
    """The fault a game of the rule file `text` (and `finish`) meets as it starts."""
    game = Game(load_program(write_rules(tmp_path, text, "g.yaml", finish)), 0)
    with pytest.raises(GameError) as caught:
        game.start()
    return caught.value


def assert_located(error: GameError, line: int, *words: str) -> None:
    """`error` says each of `words` and points at `line` of the rule file."""
    assert all(word in error.message for word in words), error.message
    assert error.location is not None and error.location.line == line, error.location


def value(tmp_path, functions: str, expression: str, extra: str = "") -> object:
    """The value of `expression` as a state variable's initial value, with `functions` declared."""
    text = f"game: t\n{extra}\nfunctions:\n{functions}\nstate:\n  v: \"{expression}\"\n"
    return run(tmp_path, text).memory.vars["v"]


def test_an_inlined_function_keeps_its_own_variables_apart_from_its_arguments(tmp_path):
    functions = '  f(c): "[c for c in range(3)]"\n  g(c): "c + sum(c for c in range(3))"\n' \
                '  h(x): "max([1, 2, 3], key=lambda y: y * x)"\n  k(c): "f(c) + [c]"\n'
    assert value(tmp_path, functions, "[f(5), g(10), h(-1), k(7)]") == [[0, 1, 2], 13, 1, [0, 1, 2, 7]]


def test_an_argument_that_draws_at_random_is_drawn_once(tmp_path):
    # double(x) reads x twice: inlined, a random argument would be drawn twice (and the sum could be odd)
    text = """\
        game: t
        functions:
          double(x): "x + x"
        state:
          v: "[double(randint(1, 1000)) for i in range(200)]"
    """
    drawn = run(tmp_path, text).memory.vars["v"]
    assert all(n % 2 == 0 for n in drawn) and len(set(drawn)) > 50


def test_a_random_draw_in_a_comprehension_is_not_remembered(tmp_path):
    text = """\
        game: t
        state:
          v: "[randint(1, 1000000) for i in range(50)]"
    """
    assert len(set(run(tmp_path, text).memory.vars["v"])) > 45


def test_a_generator_made_by_a_function_is_gone_over_afresh_each_time(tmp_path):
    # gen(1) reads nothing that varies in the comprehension, but its value is a generator: remembered, it would
    # be used up by the first item (gen calls itself, so it stays a call; an inlined one is the generator itself)
    functions = '  gen(n): "(x for x in [1, 2, 3]) if n == 0 else gen(n - 1)"\n'
    assert value(tmp_path, functions, "[len(zip(gen(1), [i, i, i])) for i in range(3)]") == [3, 3, 3]


def test_a_value_moved_out_of_a_comprehension_is_computed_only_when_first_needed(tmp_path):
    # best() fails on an empty table (max of nothing); the test reaches it only when the table has cards
    text = """\
        game: t
        functions:
          best(): "max(c.rank for c in table)"
        state:
          v: "[r for r in [1, 2, 3] if len(table) == 0 or r > best()]"
    """
    assert run(tmp_path, text, finish=cards_in("stock") + FINISH).memory.vars["v"] == [1, 2, 3]


def test_a_whole_inlined_call_with_its_temporary_is_remembered_and_computed_only_when_needed(tmp_path, monkeypatch):
    # ranked(x) reads x twice, so its argument highest() is kept in a temporary (`(_t1 := ...) % 2, _t1`): the whole
    # inlined ranked(highest()) reads nothing the filter varies and is remembered with its temporary; `lowest()`
    # fails on the empty stock, and the test never reaches it
    text = """\
        game: t
        functions:
          highest(): "max(c.rank for c in table)"
          lowest(): "min(c.rank for c in stock)"
          ranked(x): "(x % 2, x)"
        state:
          beaten: "[r for r in [1, 2, 3, 4, 5] if len(stock) > 0 or (r % 2, r) > ranked(highest())]"
          lazy: "[r for r in [1, 2] if len(table) > 0 or (r % 2, r) > ranked(lowest())]"
    """
    game, source = optimised_source(tmp_path, monkeypatch, text, finish=cards_in("table") + FINISH)
    assert game.memory.vars["beaten"] == [5] and game.memory.vars["lazy"] == [1, 2]
    assert re.search(r"\(_h\d+ := \(B_max\(.*\) % 2|\(_h\d+ := \(\(_t\d+ := |\(_h\d+ := \(B_modulo\(M, \(_t\d+ := ",
                     source), source


def test_a_value_moved_out_of_a_later_loop_of_a_comprehension_compiles_and_is_right(tmp_path):
    functions = '  three(): "len([1, 2, 3])"\n'
    assert value(tmp_path, functions, "[(x, y) for x in range(2) for y in range(three()) if y < three() - 1]") == \
        [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_equal_code_reading_different_values_is_not_shared(tmp_path):
    # the two sums differ only in names, but `a` (and `c`) is both a lambda's own and the function's parameter:
    # they read different parameters and must not become one remembered value
    functions = '  pick(a, c): "[a + max([1, 2], key=lambda a: -a) for i in range(1)] + ' \
                '[c + max([1, 2], key=lambda c: -c) for i in range(1)]"\n'
    assert value(tmp_path, functions, "pick(len([1]) * 10, len([1, 2]) * 10)") == [11, 21]  # (not inlined)


def test_a_fault_inside_an_inlined_function_is_reported_in_that_function(tmp_path):
    text = """\
        game: t
        functions:
          first_of(xs): "xs[0]"
        state:
          v: "0"
        setup: |
          v = first_of([])
    """
    assert_located(start_fault(tmp_path, text), 3, "function 'first_of'", "IndexError")


def test_a_fault_in_an_argument_put_into_an_inlined_function_is_reported_where_the_call_is(tmp_path):
    # `twice(x)` reads x twice: the argument is computed once, inside the inlined body, yet its fault is the
    # caller's (line 7, the setup), and a fault of the body itself stays the function's (line 3)
    text = """\
        game: t
        functions:
          twice(x): "x + x"
        state:
          v: "0"
        setup: |
          v = twice([1][2])
    """
    assert_located(start_fault(tmp_path, text), 7, "setup", "IndexError")
    text = text.replace('"x + x"', '"x + x + [][0]"').replace("[1][2]", "1")
    assert_located(start_fault(tmp_path, text), 3, "function 'twice'", "IndexError")


def test_the_optimised_code_is_checked_again():
    check_generated("def rule_when_0(M, V):\n    return [v_x for v_x in V['a'] if (_h0 := 1)]\n", set())
    with pytest.raises(GeneratedCodeError, match="assignment expression"):
        check_generated("def rule_when_0(M, V):\n    return (v_x := 1)\n", set())


ATTRIBUTE = "a_suit"  # (an attribute a rule file may read, behind the engine's prefix)


@pytest.mark.parametrize("body, problem", [
    ("import os", "Import"),
    ("while 1: pass", "While"),
    ("return f'{V}'", "JoinedStr"),
    ("return open", "the name 'open'"),
    ("return [x for x in V]", "the name 'x'"),
    ("return V.__class__", "the attribute '__class__'"),
    ("return M.__dict__", "the attribute '__dict__'"),
    ("return V[0].suit", "the attribute 'suit'"),
    ("return M.a_suit", "the attribute 'a_suit'"),
    ("return b'x'", "the constant b'x'"),
    ("return 1e999", "the constant inf"),
    ("return 2j", "the constant 2j"),
    ("return B_f(**V)", "the keyword None"),
    ("return B_f(_x=1)", "the keyword '_x'"),
    ("return (lambda y: y)(1)", "the name 'y'"),
])
def test_the_generated_code_check_refuses_what_the_compiler_never_writes(body, problem):
    good = f"def rule_when_0(M, V):\n    return V[0].{ATTRIBUTE} and M.move\n"
    check_generated(good, {ATTRIBUTE})
    with pytest.raises(GeneratedCodeError, match=re.escape(problem)):
        check_generated(f"def rule_when_0(M, V):\n    {body}\n", {ATTRIBUTE})


@pytest.mark.parametrize("header, problem", [
    ("@B_f\ndef rule_when_0(M, V):", "a decorated or annotated function"),
    ("def rule_when_0(M, V) -> B_f:", "a decorated or annotated function"),
    ("def rule_when_0(M, V=1):", "a decorated or annotated function"),
    ("def rule_when_0(M, V: int):", "the name 'int'"),
    ("def when(M, V):", "the name 'when'"),
    ("def rule_when_0(M, self):", "the name 'self'"),
])
def test_the_generated_code_check_refuses_functions_the_compiler_never_writes(header, problem):
    with pytest.raises(GeneratedCodeError, match=re.escape(problem)):
        check_generated(f"{header}\n    return 1\n", set())


def test_the_generated_code_check_refuses_a_node_of_a_kind_made_to_pass_for_an_allowed_one():
    class Sneaky(ast.Name):
        pass
    tree = ast.parse("def rule_when_0(M, V):\n    return V\n")
    tree.body[0].body[0].value = Sneaky(id="V", ctx=ast.Load())
    with pytest.raises(GeneratedCodeError, match="Sneaky"):
        check_generated(tree, set())


# ------------------------------------------------------------------ constant folding
def optimised_source(tmp_path, monkeypatch, text: str, finish: str = FINISH) -> tuple[Game, str]:
    """A started game of the rule file `text` (and `finish`), and its generated modules as the linker compiles them
    (written back from their syntax trees: ast.unparse)."""
    import ast

    import naipes.language.linker as linker
    seen: list[str] = []
    module_source = linker.module_source

    def keep(defs):
        source, origins, facts = module_source(defs)
        seen.append(ast.unparse(ast.parse(source)))
        return source, origins, facts
    monkeypatch.setattr(linker, "module_source", keep)
    game = run(tmp_path, text, finish=finish)
    return game, "\n".join(seen)


def test_a_test_on_params_is_folded_and_only_the_branch_it_takes_is_left(tmp_path, monkeypatch):
    text = """\
        game: t
        params:
          deck: {type: int, default: 40, choices: [40, 48]}
        functions:
          ranks(): "[1, 2, 3, 8, 9] if deck == 48 else [1, 2, 3]"
          shown(n): "'bid' if n > 0 and True else 'play'"
        state:
          v: "ranks()"
          w: "shown(0)"
    """
    game, source = optimised_source(tmp_path, monkeypatch, text)
    assert game.memory.vars["v"] == [1, 2, 3] and game.memory.vars["w"] == "play"
    assert "40 == 48" not in source and "[1, 2, 3, 8, 9]" not in source, source
    assert "0 > 0" not in source and "return 'play'" in source, source  # (shown's own definition stays)


def test_a_branch_chosen_by_a_constant_keeps_its_located_error(tmp_path):
    text = """\
        game: t
        functions:
          first_of(n, xs): "xs[0] if n > 0 else 0"
        state:
          v: "0"
        setup: |
          if 2 > 1:
            v = first_of(1, [])
    """
    assert_located(start_fault(tmp_path, text), 3, "function 'first_of'", "IndexError")


def test_an_operand_is_dropped_only_where_the_value_stays_the_same(tmp_path, monkeypatch):
    # `xs and True` is True for a list xs, not the list; `1 > 0 and True` is the comparison's own True;
    # `True and xs` is xs; `False or xs` is xs
    functions = '  both(a, b): "a and b"\n  either(a, b): "a or b"\n'
    text = f"game: t\nfunctions:\n{functions}state:\n  v: \"[both([x for x in [1, 2]], True), " \
           "both(len([1]) > 0, True), both(True, [x for x in [3]]), either(False, [x for x in [4]]), " \
           "either([x for x in [5]], False), both([x for x in [6]], 1)]\"\n"
    game, source = optimised_source(tmp_path, monkeypatch, text)
    values = game.memory.vars["v"]
    assert values == [True, True, [3], [4], [5], 1] and [type(v) for v in values] == [bool, bool, list, list, list,
                                                                                          int]
    assert "[1, 2])] and True" in source and "[5])] or False" in source and "[6])] and 1" in source, source
    assert "B_len([1]) > 0 and True" not in source and "True and" not in source and "False or" not in source


def test_nothing_that_calls_or_reads_a_name_is_folded(tmp_path, monkeypatch):
    text = """\
        game: t
        functions:
          pick(n): "1 if n == 0 else 2"
        state:
          a: "3"
          v: "[pick(len([])), pick(a - 3), pick(randint(0, 0))]"
    """
    game, source = optimised_source(tmp_path, monkeypatch, text)
    assert game.memory.vars["v"] == [1, 1, 1]
    assert "B_len([]) == 0" in source and "V['a'] - 3 == 0" in source and "B_randint(" in source, source


def test_a_folded_inlined_call_still_charges_its_step_in_a_loop(tmp_path):
    # f's test is known once 1 is put for k, so its inlined body is just `i + 1`; each item still charges f's call
    # (400,000 items made and 800,000 steps: without that charge the budget is not reached)
    text = """\
        game: t
        functions:
          f(n, k): "0 if k > 2 else n + 1"
        state:
          v: "0"
        setup: |
          v = len([f(i, 1) for i in range(400000)])
    """
    game = Game(load_program(write_rules(tmp_path, text, "g.yaml", FINISH)), 0)
    with pytest.raises(GameError, match="1,000,000 steps"):
        game.start()


@pytest.mark.parametrize("call, kept, fits, too_many", [
    # range(n) charges n steps, max going over the n items n more, and the key's call one per item: 3n
    ("max(range(n), key=lambda i: f(i, 1))", lambda n: n - 1, 300_000, 400_000),
    # a sort charges what it compares once per round (n + 1 items, 16 rounds for 60,000): 18n or so
    ("len(sorted(range(n), key=lambda i: -f(i, 1)))", lambda n: n, 30_000, 60_000)])
def test_a_key_charges_its_inlined_calls_once_per_item(tmp_path, call, kept, fits, too_many):
    text = """\
        game: t
        params: {n: {type: int, default: 1}}
        functions:
          f(n, k): "0 if k > 2 else n + 1"
        state:
          v: "0"
        setup: |
          v = CALL
    """.replace("CALL", call)
    path = write_rules(tmp_path, text, "g.yaml", FINISH)
    game = Game(load_program(path, {"n": str(fits)}), 0)
    game.start()
    assert game.memory.vars["v"] == kept(fits)
    game = Game(load_program(path, {"n": str(too_many)}), 0)
    with pytest.raises(GameError, match="1,000,000 steps"):
        game.start()


def test_an_if_on_a_constant_keeps_the_branch_it_takes(tmp_path, monkeypatch):
    text = """\
        game: t
        params:
          house: {type: bool, default: false}
        state:
          v: "0"
        setup: |
          if house:
            v = 1
          elif 2 > 1:
            v = 2
          else:
            v = 3
          if house:
            v = v + 10
    """
    game, source = optimised_source(tmp_path, monkeypatch, text)
    assert game.memory.vars["v"] == 2
    assert "if False" not in source and "2 > 1" not in source and "3)" not in source, source


@pytest.mark.slow
def test_folding_computes_what_python_computes(monkeypatch):
    # random expressions of literals and locals, compiled as a condition returns them and as a test: the module
    # folded gives the same value (of the same type) as the module compiled without folding, or fails the same way
    import random
    import warnings

    from naipes.language import linker, passes
    from naipes.language.compiler import Compiler, Symbols
    from naipes.language.sections import Definition
    from naipes.library.limits import Budget
    rng = random.Random(7)
    literals = ["0", "1", "2", "True", "False", "None", "''", "'a'", "3.5", "(1, 2)", "[1, 'a']", "-1", "48"]
    values = {"x": [1, 2], "y": [], "z": 0, "w": "s", "u": None, "t": True}

    def expression(depth: int) -> str:
        if depth == 0 or rng.random() < 0.2:
            return rng.choice(literals + list(values))
        e = lambda: expression(depth - 1)  # noqa: E731
        return rng.choice([
            lambda: f"({e()} and {e()} and {e()})", lambda: f"({e()} or {e()} or {e()})", lambda: f"(not {e()})",
            lambda: f"({e()} if {e()} else {e()})", lambda: f"({e()} < {e()} <= {e()})", lambda: f"(-{e()})",
            lambda: f"({e()} {rng.choice(['==', '!=', '>', 'in', 'not in', 'is', 'is not'])} {e()})",
            lambda: f"({e()} {rng.choice(['+', '-', '*', '/', '//', '%'])} {e()})",
            lambda: f"[i for i in [1, 2] if {e()}]"])()

    class Unfolded:
        def definition(self, definition: object) -> None:
            pass

    def outcome(defs: list[Definition], fold: bool) -> tuple[tuple, str]:
        with monkeypatch.context() as patch:
            if not fold:
                patch.setattr(passes, "Folder", Unfolded)
            source, _, _ = linker.module_source(defs)
            module = linker.compile_module(defs, Symbols(), "test")
        try:
            value = module.namespace["rule_when_0"](Budget(), {}, *values.values())
        except Exception as error:  # noqa: BLE001
            return ("error", type(error)), source
        return ("value", type(value), value), source
    folded = compiled = 0
    with warnings.catch_warnings():  # (`1 is None` is a literal compared by identity: Python warns, rightly)
        warnings.simplefilter("ignore", SyntaxWarning)
        for _ in range(300):
            text = expression(4)
            compiler = Compiler(Symbols())
            scope = dict.fromkeys(values)
            for unit, block in ((compiler.expression(text, scope), False),
                                (compiler.function_body(f"if {text}:\n    return 1\nreturn 0", scope, "test"), True)):
                if unit is None:  # (a text the language refuses: `-'a'`, say)
                    continue
                defs = [Definition("rule_when_0", tuple(values), unit, block, "test", "rule_when")]
                (before, unfolded), (after, source) = outcome(defs, False), outcome(defs, True)
                assert before == after, (text, source)
                compiled += 1
                folded += source != unfolded
    assert compiled > 300 and folded > compiled / 3, (compiled, folded)  # (the folding did happen)


def test_a_filter_that_does_not_read_the_item_is_tested_once_and_not_on_no_items(tmp_path, monkeypatch):
    # each `let` filters by a test of the state, not of the item: all of the items or none; on no items
    # the test (here a fault: the first item of an empty list) is not made, as in the comprehension
    text = """\
        game: t
        state:
          gate: 1
          empty: "[]"
          kept: 0
    """
    finish = """\
rules:
  - name: check
    when: "kept == 0"
    then: |
      let every = [x for x in [4, 5, 6] if gate == 1]
      let none = [x for x in [4, 5] if gate == 2]
      let nothing = [x for x in [] if empty[0] == 1]
      kept = len(every) + 10 * len(none) + 100 * len(nothing) + 1000
      end game
"""
    game, source = optimised_source(tmp_path, monkeypatch, text, finish=finish)
    assert game.memory.vars["kept"] == 1003
    assert source.count(":= list(") == 3, source


def test_a_list_grown_by_a_list_display_calls_grow_and_keeps_its_value(tmp_path, monkeypatch):
    # `x = x + [...]` and `p.x = p.x + [...]` become grow_var and grow_attr (each weighs only what the list
    # gains); anything else stays a plain write: another player's list, a list that is not a display
    text = """\
        game: t
        players: 2
        state:
          seen: "[]"
          other: "[1]"
          done: 0
        player_state:
          kept: "[]"
        rules:
          - name: grow
            when: "done == 0"
            then: |
              for i in range(3):
                  seen = seen + [i, (i, 'x')]
                  seen = seen + []
                  other = other + seen
                  for p in players:
                      p.kept = p.kept + [i]
                  players[0].kept = players[1].kept + [9]
              done = 1
              end game
    """
    game, code = optimised_source(tmp_path, monkeypatch, text, finish="")
    assert code.count("M.grow_var(") == 2 and code.count("M.grow_attr(") == 1, code
    V, (p1, p2) = game.memory.vars, game.memory.players
    assert V["seen"] == [0, (0, "x"), 1, (1, "x"), 2, (2, "x")]
    assert V["other"] == [1, 0, (0, "x"), 0, (0, "x"), 1, (1, "x"), 0, (0, "x"), 1, (1, "x"), 2, (2, "x")]
    assert (p1.kept, p2.kept) == ([0, 1, 2, 9], [0, 1, 2])
    assert game.memory.grown["seen"] == (V["seen"], 13)  # (the list, 3 numbers and 3 pairs: 1 + 3 + 3 * 3)


def test_a_cascade_step_that_does_not_read_the_candidate_is_not_tested_on_no_candidates(tmp_path, monkeypatch):
    # `first` reads no candidate: all of them or none, tested once; with no candidates (nothing picked yet)
    # it is not tested at all (the test would fault: the first item of an empty list)
    text = """\
        game: t
        players: 1
        state:
          picked: "[]"
        moves:
          pick:
            choose: "n in [1, 2] if len(picked) < 2 else []"
            legal:
              - first: "len(picked) == 0 or picked[0] == 1"
              - then: "True"
            then: "picked = picked + [n]"
          repick:
            choose: "n in picked"
            legal:
              - first: "picked[0] == 2"
              - then: "True"
            then: "picked = picked + [n + 10]"
          stop:
            then: "end game"
        rules:
          - name: ask
            when: "len(picked) < 9"
            then: "ask players[0] to repick, pick, stop"
    """
    game, code = optimised_source(tmp_path, monkeypatch, text, finish="")
    assert "list(v___candidates) if v___candidates and" in code
    assert [o.label for o in game.options()] == ["pick 1", "pick 2", "stop"]  # (repick: no candidates, no test)
    game.apply(game.options()[0])  # pick 1: repick's `first` fails (the next step keeps 1), pick's holds
    assert [o.label for o in game.options()] == ["repick 1", "pick 1", "pick 2", "stop"]
    game.apply(game.options()[0])  # repick 1 (11)
    assert [o.label for o in game.options()] == ["repick 1", "repick 11", "stop"]


def test_cascade_steps_that_begin_with_the_same_test_filter_by_it_once(tmp_path, monkeypatch):
    # `same_third` and `same_third_and_big` begin alike: the candidates passing that test are filtered once;
    # `even_and_big` begins otherwise and still goes over every candidate
    text = """\
        game: t
        players: 1
        state:
          k: 0
        moves:
          pick:
            choose: "c in [1, 2, 3, 4, 5, 6, 7, 8, 9]"
            legal:
              - same_third_and_big: "c % 3 == k % 3 and c > 7"
              - even_and_big: "c % 2 == 0 and c > 5 + k"
              - same_third: "c % 3 == k % 3"
            then: "k += 1"
        rules:
          - name: ask
            when: "k < 5"
            then: "ask players[0] to pick"
          - name: finish
            when: "k == 5"
            then: "end game"
    """
    game, source = optimised_source(tmp_path, monkeypatch, text, finish="")
    assert len(re.findall(r"v___shared_1(?:: list)? = ", source)) == 1 and "v___shared_2" not in source
    chosen = []
    for _ in range(5):
        chosen.append([o.arg for o in game.options()])
        game.apply(game.options()[0])
    # k = 1: none of 1 4 7 is above 7, 8 is even and above 6; k = 4: none of 1 4 7 is above 7, none even
    # above 9: the same third
    assert chosen == [[9], [8], [8], [9], [1, 4, 7]]


def test_a_value_of_a_filter_first_test_is_computed_before_it_only_when_there_are_candidates(tmp_path, monkeypatch):
    # `c == max(seen)` computes max(seen) as the filter begins (not at each candidate); with no candidates
    # (nothing seen yet) it is not computed at all (max of an empty list faults)
    text = """\
        game: t
        players: 1
        state:
          seen: "[]"
        moves:
          again:
            choose: "c in seen"
            legal:
              - highest: "c == max(seen) and c > 0"
              - any: "True"
            then: "seen = seen + [c + 1]"
          add:
            choose: "c in [2, 5, 3]"
            then: "seen = seen + [c]"
        rules:
          - name: ask
            when: "len(seen) < 4"
            then: "ask players[0] to again, add"
          - name: finish
            when: "len(seen) == 4"
            then: "end game"
    """
    game, source = optimised_source(tmp_path, monkeypatch, text, finish="")
    assert "if v___candidates and _h" in source
    assert [o.label for o in game.options()] == ["add 2", "add 5", "add 3"]  # (again: no candidates, no max)
    game.apply(game.options()[1])
    game.apply(game.options()[3])  # again 5, add 2, add 5, add 3: seen 5 3
    assert [o.arg for o in game.options() if o.move == "again"] == [5]


def test_moves_asked_together_with_the_same_candidates_make_them_once_per_decision(tmp_path, monkeypatch):
    # `take` and `drop` choose from `pile` alike: in a decision asking both, the first makes the candidates
    # and the second takes them (`keep` chooses otherwise). A decision asking `take` alone, then decisions
    # asking both after `pile` changed, never see an old pile.
    text = """\
        game: t
        players: 1
        state:
          pile: "[1, 2, 3]"
          turns: 0
        moves:
          take:
            choose: "c in pile"
            legal: "c > 1"
            then: "pile = pile + [c + 10]\\nturns += 1"
          drop:
            choose: "c in pile"
            then: "pile = [d for d in pile if d != c]\\nturns += 1"
          keep:
            choose: "c in sorted(pile)"
            then: "turns += 1"
        rules:
          - name: alone
            when: "turns == 0"
            then: "ask players[0] to take"
          - name: together
            when: "0 < turns < 4"
            then: "ask players[0] to take, drop, keep"
          - name: finish
            when: "turns == 4"
            then: "end game"
    """
    game, source = optimised_source(tmp_path, monkeypatch, text, finish="")
    assert source.count("M.give(0, ") == 2 and "M.give(1, " not in source
    assert [o.label for o in game.options()] == ["take 2", "take 3"]
    game.apply(game.options()[1])  # take 3: the pile is 1 2 3 13
    seen = [(o.move, o.arg) for o in game.options() if o.move in ("take", "drop")]
    assert seen == [("take", 2), ("take", 3), ("take", 13), ("drop", 1), ("drop", 2), ("drop", 3), ("drop", 13)]
    game.apply(next(o for o in game.options() if (o.move, o.arg) == ("drop", 2)))  # the pile is 1 3 13
    assert [(o.move, o.arg) for o in game.options() if o.move == "drop"] == [("drop", 1), ("drop", 3), ("drop", 13)]
    assert [o.arg for o in game.options() if o.move == "keep"] == [1, 3, 13]


def test_a_statements_filter_is_a_loop_that_keeps_the_same_items(tmp_path, monkeypatch):
    # `x = [c for c in items if test]` becomes a loop appending to x (no call of a comprehension's own
    # function); a copy is list(items); a filter whose item name the action also uses as a local stays
    text = """\
        game: t
        state:
          kept: "[]"
          copied: "[]"
          mapped: "[]"
          after: 0
        rules:
          - name: filter
            when: "len(kept) == 0"
            then: |
              let items = [4, 1, 7, 2, 9]
              let big = [x for x in items if x > 3 and x != 7]
              let keyed = [x for x in items if max([x, 5], key=lambda k: -k) == 5]
              let c = 100
              let small = [c for c in items if c < 3]
              let copy = [d for d in items]
              let doubled = [d * 2 for d in items]
              kept = big + keyed + small
              copied = copy
              mapped = doubled
              after = c
              end game
    """
    game, source = optimised_source(tmp_path, monkeypatch, text, finish="")
    V = game.memory.vars
    assert V["kept"] == [4, 9] + [7, 9] + [1, 2] and V["after"] == 100
    assert V["copied"] == [4, 1, 7, 2, 9] and V["mapped"] == [8, 2, 14, 4, 18]
    rule = source[source.index("def rule_then"):]
    rule = rule[:rule.index("\ndef ")]
    assert rule.count("B_append(") == 2 and "v_big: list = []" in rule and "v_keyed: list = []" in rule, rule
    assert "v_small: list = [v_c for v_c in" in rule, rule  # c is a local of the action: its filter stays
    assert "v_copy: list = list(" in rule and "[B_times(M, v_d, 2) for v_d in" in rule, rule


def test_an_if_on_all_or_any_is_a_loop_that_stops_at_the_item_that_settles_it(tmp_path, monkeypatch):
    # `if all(...)`, `if any(...)` and `if A and all(...)` are decided by a loop in the function (no generator);
    # as Python's all and any, it stops at the first item that settles the answer (here, before a division by
    # zero) and does not go over the items at all when a test before it is false
    text = """\
        game: t
        state:
          seen: "[]"
          ready: false
        rules:
          - name: ready
            when: "not ready and all(x > 0 for x in [3, 6])"
            then: "ready = True"
          - name: decide
            when: "ready and len(seen) == 0"
            then: |
              let xs = [3, 6, 0]
              let found = []
              if all(6 // x > 1 for x in xs):
                  found = found + ['all']
              if any(6 // x == 2 for x in xs):
                  found = found + ['any']
              if len(xs) == 0 and all(6 // x > 0 for x in xs):
                  found = found + ['empty']
              if any(6 // x == 1 for x in xs if x > 3):
                  found = found + ['filtered']
              if len(xs) == 3 and any(x == 9 for x in [1, 2]):
                  found = found + ['none']
              seen = found + ['end']
              end game
    """
    game, source = optimised_source(tmp_path, monkeypatch, text, finish="")
    assert game.memory.vars["seen"] == ["any", "filtered", "end"]
    rule = next(f for f in source.split("\ndef ") if "v_found" in f)
    assert "B_all(" not in rule and "B_any(" not in rule and rule.count("break") == 5, rule
    evaluation = source[source.index("def agenda_evaluate"):]
    assert "B_all(" not in evaluation and "break" in evaluation, evaluation


def test_an_elif_on_all_or_any_or_with_a_remembered_value_is_decided_in_an_else(tmp_path, monkeypatch):
    # an `elif` whose test becomes a loop (all, any) or needs a remembered value set first (max(xs) inside a
    # filter) becomes an `else` holding those statements and an `if` with the branches after it: each test is
    # still made only when the ones before it failed, and `all` stops before the division by zero
    text = """\
        game: t
        state:
          seen: "[]"
        rules:
          - name: decide
            when: "len(seen) == 0"
            then: |
              let xs = [3, 6, 0]
              let found = []
              if len(xs) == 0:
                  found = found + ['empty']
              elif all(6 // x > 1 for x in xs):
                  found = found + ['all']
              elif len([x for x in xs if x == max(xs)]) == 2:
                  found = found + ['two highest']
              elif any(x == 3 for x in xs):
                  found = found + ['any']
              else:
                  found = found + ['else']
              seen = found + ['end']
              end game
    """
    game, source = optimised_source(tmp_path, monkeypatch, text, finish="")
    assert game.memory.vars["seen"] == ["any", "end"]
    rule = next(f for f in source.split("\ndef ") if "v_found" in f)
    assert "B_all(" not in rule and "B_any(" not in rule and rule.count("break") == 2, rule
    assert re.search(r"else:\n +_h(\d+) = B_UNSET\n +if .*\(_h\1 := B_max\(", rule), rule


def test_an_all_whose_item_name_the_function_also_uses_loops_in_a_function_of_its_own(tmp_path, monkeypatch):
    text = """\
        game: t
        state:
          v: 0
        rules:
          - name: count
            when: "v == 0"
            then: |
              let x = 10
              if all(x > 0 for x in [1, 2]):
                  v = x
              end game
    """
    game, source = optimised_source(tmp_path, monkeypatch, text, finish="")
    assert game.memory.vars["v"] == 10
    rule = source[source.index("def rule_then"):source.index("def agenda_evaluate")]
    assert "for v_x" not in rule and "reduction_1(M, V, M.charge([1, 2]))" in rule, source  # (x stays 10 there)
    assert "for v_x in v___items" in source[source.index("def reduction_1"):], source


def test_reductions_in_expressions_loop_in_functions_of_their_own_and_agree_with_python(tmp_path, monkeypatch):
    # max and min keep the first item of the best key, as Python's do; any and all with a test and a pair as
    # the item; names of the rule (n) and of an enclosing comprehension (k) are read by the key
    text = """\
        game: t
        state:
          v: "[]"
        rules:
          - name: reduce
            when: "v == []"
            then: |
              let pairs = [[1, 'a'], [3, 'b'], [3, 'c'], [1, 'd']]
              let n = 2
              v = [max(pairs, key=lambda p: p[0])[1], min(pairs, key=lambda p: p[0])[1],
                   max(pairs, key=lambda p: -abs(p[0] - n))[1],
                   [max(pairs, key=lambda p: p[0] * k + n)[1] for k in [1, -1]],
                   any(x > n for x, y in pairs if y != 'b'), all(x > n for x, y in pairs if x != 1),
                   any(x > 5 for x, y in pairs), all(x > 0 for x, y in pairs),
                   max(pairs, key=lambda p: max([p[0], n], key=lambda q: -q))[1]]
              end game
    """
    game, source = optimised_source(tmp_path, monkeypatch, text, finish="")
    assert game.memory.vars["v"] == ["b", "a", "a", ["b", "a"], True, True, False, True, "b"]
    rule = source[source.index("def rule_then"):source.index("def agenda_evaluate")]
    assert "lambda" not in rule and "B_max_keyed" not in rule and "B_any" not in rule and "B_all" not in rule, rule
    assert re.search(r"def reduction_\d+\(M, V, v___items, v_k, v_n\):", source), source  # (its names: parameters)


def test_a_call_in_a_key_that_does_not_read_the_item_is_computed_once_per_reduction_when_first_needed(
        tmp_path, monkeypatch):
    # highest() reads no item: computed once per max, not once per item; lowest() fails on the empty stock, and
    # no key reaches it; a call that reads the item (ranked(r)) is computed for each
    text = """\
        game: t
        functions:
          highest(): "max(c.rank for c in table)"
          lowest(): "min(c.rank for c in stock)"
          ranked(x): "-abs(x - 2)"
        state:
          best: "max([1, 2, 3, 4], key=lambda r: (r == highest(), -r))"
          lazy: "max([1, 2], key=lambda r: r if r > 0 else lowest())"
          near: "max([4, 1, 2, 3], key=lambda r: ranked(r))"
    """
    game, source = optimised_source(tmp_path, monkeypatch, text, finish=cards_in("table") + FINISH)
    assert [game.memory.vars[v] for v in ("best", "lazy", "near")] == [3, 2, 2]
    reductions = [part for part in source.split("\ndef ") if part.startswith("reduction_")]
    assert len(reductions) == 3, source
    best, lazy, near = reductions
    assert re.search(r"_h(\d+) = B_UNSET\n.*\n\s+for .*\(_h\1 if _h\1 is not B_UNSET else \(_h\1 := B_max\(", best,
                     re.S), best
    assert ":= B_min(" in lazy and "B_UNSET\n" in lazy, lazy
    assert "_h" not in near, near


def test_equal_reductions_written_in_one_place_loop_in_one_function(tmp_path, monkeypatch):
    # lowest() is inlined in two places, each a copy of its min with the names of its lambda made afresh: the
    # copies and the function's own definition share one loop; a min written elsewhere alike gets one of its own
    text = """\
        game: t
        functions:
          lowest(): "min([3, 1, 2], key=lambda r: -r)"
        state:
          v: "[lowest(), lowest() + 1, min([3, 1, 2], key=lambda r: -r)]"
    """
    game, source = optimised_source(tmp_path, monkeypatch, text)
    assert game.memory.vars["v"] == [3, 4, 3]
    assert source.count("\ndef reduction_") == 2, source
    assert source.count("reduction_1(M, V, M.charge(") == 3, source  # (F_lowest and both copies of it)


@pytest.mark.parametrize("items, body, said", [
    ("[3, 0]", ["let kept = [x for x in xs if 6 // x > 1]", "v = len(kept)"], "ZeroDivisionError"),  # a filter
    ("[3, 0]", ["if all(6 // x > 1 for x in xs):", "    v = 1"], "ZeroDivisionError"),  # an `if all(...)`
    ("[]", ["v = max(xs, key=lambda x: x) + 1"], "max() arg is an empty sequence"),  # a max with a key
    ("[3, 0]", ["v = max(xs, key=lambda x: 6 // x) + 1"], "ZeroDivisionError"),
])
def test_a_fault_in_a_loop_the_optimiser_made_is_located_in_its_rule(tmp_path, items, body, said):
    # a comprehension's filter, an `if all(...)` and a max with a key become loops (in the rule's function or in
    # one of their own): a fault there names the rule and the line
    lines = "\n".join(f"              {line}" for line in body)
    text = f"""\
        game: t
        state:
          v: 0
        rules:
          - name: pick
            when: "v == 0"
            then: |
              let xs = {items}
{lines}
    """
    assert_located(start_fault(tmp_path, text, finish=""), 9, "pick", said)


def test_a_card_tables_values_are_one_dict_made_once_and_equal_tables_share_it(tmp_path, monkeypatch):
    text = """\
        game: t
        cards:
          attributes: {rank: [1, 2, 3]}
          tables:
            points: {of: rank, values: {1: 11, 3: 10}, default: 0}
            worth: {of: rank, values: {1: 11, 3: 10}, default: 0}
            order: {of: rank, values: {1: 3, 2: 1, 3: 2}}
          start: deck
        zones:
          deck: {}
        state:
          v: "[[c.points, c.worth, c.order, points(c.rank) + worth(2) + order(3)] for c in deck]"
    """
    game, source = optimised_source(tmp_path, monkeypatch, text)
    assert game.memory.vars["v"] == [[11, 11, 3, 13], [0, 0, 1, 2], [10, 10, 2, 12]]
    assert source.count("table_1 = {1: 11, 3: 10}") == 1 and source.count("table_2 = {1: 3, 2: 1, 3: 2}") == 1
    assert source.count("B_lookup(table_1, v_rank, 0)") == 2 and "B_lookup({" not in source, source


def test_every_node_holds_its_children_as_its_class_says_in_the_shipped_rule_files(monkeypatch):
    """The walks of the tree (child_list, replace_children) trust each field's annotation (Node.holding): a field
    said to hold one node holds a node or None, a list of nodes holds only nodes. Every node of three shipped rule
    files' trees (between them, the 60 kinds of node any shipped file has), before and after the optimiser, is
    checked against what its fields really hold."""
    from naipes.language import linker, nodes
    from naipes.language.shipped import RULESETS

    def generic_children(node):
        found = []
        for name in node.fields:
            value = getattr(node, name)
            if isinstance(value, nodes.Node):
                found.append(value)
            elif isinstance(value, list):
                found += [item for item in value if isinstance(item, nodes.Node)]
            else:
                assert value is None, f"{type(node).__name__}.{name} holds {value!r}"
        return found

    optimise, checked, kinds = linker.optimise_definitions, [0], set()

    def checking(definitions):
        for moment in ("before", "after"):
            for definition in definitions:
                for node in definition.find_all(nodes.Node):
                    assert node.child_list() == generic_children(node), f"{moment}: {type(node).__name__}"
                    for name, holding in node.holding:
                        value = getattr(node, name)
                        if holding == nodes.MANY:
                            assert all(isinstance(item, nodes.Node) for item in value), (moment, name)
                    checked[0] += 1
                    kinds.add(type(node))
            if moment == "before":
                optimise(definitions)

    monkeypatch.setattr(linker, "optimise_definitions", checking)
    for name in ("tute_cabrero", "chinchon", "truco"):
        load_program(RULESETS / f"{name}.yaml", to_c=False)
    assert checked[0] > 10_000 and len(kinds) >= 60


def test_a_key_written_as_a_tuple_is_compared_item_by_item_as_python_compares_tuples(tmp_path, monkeypatch):
    # each key (a, b, c) of cheap items is kept as three locals, no tuple made per item; the first item neither
    # the same nor equal decides, all equal is not better (the first best item is kept), and an item that is
    # the same (None) is passed over without being ordered, as a tuple's comparison does
    text = """\
        game: t
        functions:
          ties(): "max([1, 2, 3, 4, 5], key=lambda r: (r > 2, 0, None))"
          second(): "max([1, 2, 3, 4, 5], key=lambda r: (r > 1, -r, r == 3))"
          third(): "min([4, 1, 2, 3], key=lambda r: (None, r < 3, -r))"
        state:
          v: "[ties(), second(), third()]"
    """
    game, source = optimised_source(tmp_path, monkeypatch, text)
    assert game.memory.vars["v"] == [3, 2, 4]
    reductions = [part for part in source.split("\ndef ") if part.startswith("reduction_")]
    assert len(reductions) == 3, source
    for reduction in reductions:
        assert re.search(r"v___key2(?:: bool)? = ", reduction) and "v___key = " not in reduction, reduction
        assert "v___key0 is v___top0 or v___key0 == v___top0" in reduction, reduction
