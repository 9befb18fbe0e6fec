"""The optimiser (naipes.language.optimizer) changes how fast rule files run, never what they compute.

Each test writes a rule file whose result is known from the language's
semantics, in a shape that one of the optimiser's passes rewrites (an inlined
function, a value remembered inside a comprehension, a function not charged a
step), and checks the result, the laziness of what was moved, and where a
fault is reported.
"""
from __future__ import annotations

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


def run(tmp_path, text: str, seed: int = 0) -> Game:
    game = Game(load_program(write_rules(tmp_path, text, "g.yaml", FINISH)), seed)
    game.start()
    return game


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
        cards:
          attributes: {rank: [1, 2, 3]}
          start: stock
        zones:
          stock: {visibility: public}
          table: {visibility: public}
        functions:
          best(): "max(c.rank for c in table)"
        state:
          v: "[r for r in [1, 2, 3] if len(table) == 0 or r > best()]"
    """
    assert run(tmp_path, text).memory.vars["v"] == [1, 2, 3]


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
    path = write_rules(tmp_path, text, "g.yaml", FINISH)
    game = Game(load_program(path), 0)
    with pytest.raises(GameError) as caught:
        game.start()
    error = caught.value
    assert "function 'first_of'" in error.message and "IndexError" in error.message, error.message
    assert error.location is not None and error.location.line == 3, error.location


def test_the_optimised_code_is_checked_again():
    check_generated("def rule_when_0(M, V):\n    return [v_x for v_x in V['a'] if (_h0 := 1)]\n", set())
    with pytest.raises(GeneratedCodeError, match="assignment expression"):
        check_generated("def rule_when_0(M, V):\n    return (v_x := 1)\n", set())
