"""Every mistake in a rule file is a located error; runtime faults are GameErrors.

Each test writes a small rule file with one mistake, loads it, and checks
the exception type, the message, and that ``location`` (file, line, col)
points at the offending text.  The expected position is found by searching
the written file for the offending text, so the tests say *what* must be
pointed at, not a number copied from a run.
"""
from __future__ import annotations

import textwrap

import pytest

from naipes.errors import GameError, NaipesError, ParamError, RuleError, RuleErrors
from naipes.runtime.game import Game
from naipes import load_program


def write(tmp_path, text: str, name: str = "g.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def errors_of(tmp_path, text: str, params: dict | None = None, name: str = "g.yaml") -> list[RuleError]:
    """Load `text` expecting failure; every RuleError reported, in order."""
    path = write(tmp_path, text, name)
    with pytest.raises((RuleError, RuleErrors)) as info:
        load_program(path, params or {})
    exc = info.value
    assert not isinstance(exc, GameError), "a rule-file mistake must be found while loading"
    return exc.errors if isinstance(exc, RuleErrors) else [exc]


def only_error(tmp_path, text: str, name: str = "g.yaml") -> RuleError:
    errors = errors_of(tmp_path, text, name=name)
    assert len(errors) == 1, [str(e) for e in errors]
    return errors[0]


def position(path, needle: str, nth: int = 1, offset: int = 0) -> tuple[int, int]:
    """1-based (line, col) of the nth occurrence of `needle` in the file, plus `offset` columns."""
    text = path.read_text(encoding="utf-8")
    at = -1
    for _ in range(nth):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    col = at - (text.rfind("\n", 0, at) + 1) + 1
    return line, col + offset


def assert_at(error: RuleError, path, needle: str, nth: int = 1, offset: int = 0) -> None:
    assert error.location is not None, f"no location: {error}"
    assert error.location.file == str(path)
    assert (error.location.line, error.location.col) == position(path, needle, nth, offset), str(error)
    # the printed form starts with file:line:col
    assert str(error).startswith(f"{path}:{error.location.line}:{error.location.col}: ")


def start(tmp_path, text: str, seed: int = 0) -> Game:
    game = Game(load_program(write(tmp_path, text), {}), seed)
    game.start()
    return game


END = """
  - name: finish
    priority: -100
    when: "True"
    then: "end game"
"""


# ====================================================================== YAML
def test_yaml_syntax_error_is_located(tmp_path):
    error = only_error(tmp_path, """
        game: t
        title: a: b
        """)
    path = tmp_path / "g.yaml"
    assert "YAML syntax" in error.message
    assert_at(error, path, ": b")  # the second ':' on the title line


def test_yaml_bad_indentation_is_located(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          x: 1
           y: 2
        """)
    assert "YAML" in error.message
    assert error.location.line == 4


def test_tab_indentation_is_a_yaml_error(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("game: t\n\tstate: 1\n")
    with pytest.raises(RuleError) as info:
        load_program(path, {})
    assert (info.value.location.line, info.value.location.col) == (2, 1)


def test_duplicate_key_points_at_the_second_and_names_the_first(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          x: 1
          x: 2
        """)
    path = tmp_path / "g.yaml"
    assert "duplicate key 'x'" in error.message
    assert_at(error, path, "x: 2")
    assert f"{path}:3:3" in error.hint


def test_empty_file_and_non_mapping_file_are_errors(tmp_path):
    assert "empty" in only_error(tmp_path, "").message
    assert "mapping of sections" in only_error(tmp_path, "- a\n- b\n").message


def test_file_that_cannot_be_read_is_a_rule_error(tmp_path):
    with pytest.raises(RuleError):
        load_program(tmp_path / "nothing-here.yaml", {})


# ======================================================= sections and keys
def test_unknown_section_with_did_you_mean(tmp_path):
    error = only_error(tmp_path, """
        game: t
        rulez: []
        """)
    assert "unknown section 'rulez'" in error.message
    assert error.hint == "did you mean 'rules'?"
    assert_at(error, tmp_path / "g.yaml", "rulez")


@pytest.mark.parametrize("text, bad, expected_hint", [
    ("""
     game: t
     rules:
       - name: a
         when: "True"
         thne: "end game"
     """, "thne", "did you mean 'then'?"),
    ("""
     game: t
     moves:
       m:
         chose: "x in [1]"
     """, "chose", "did you mean 'choose'?"),
    ("""
     game: t
     zones:
       z: {visiblity: public}
     """, "visiblity", "did you mean 'visibility'?"),
    ("""
     game: t
     params:
       n: {type: int, default: 1, mx: 3}
     """, "mx", "did you mean 'max'?"),
    ("""
     game: t
     state:
       x: {init: 0, visibilty: hidden}
     """, "visibilty", "did you mean 'visibility'?"),
    ("""
     game: t
     cards:
       atributes: {a: [1]}
     """, "atributes", "did you mean 'attributes'?"),
])
def test_unknown_key_is_located_with_a_hint(tmp_path, text, bad, expected_hint):
    errors = errors_of(tmp_path, text)
    mine = [e for e in errors if f"unknown key '{bad}'" in e.message]
    assert len(mine) == 1, [str(e) for e in errors]
    assert mine[0].hint == expected_hint
    assert_at(mine[0], tmp_path / "g.yaml", bad)


def test_sections_of_the_wrong_shape(tmp_path):
    error = only_error(tmp_path, """
        game: t
        rules: 5
        """)
    assert "'rules' must be a list" in error.message
    assert_at(error, tmp_path / "g.yaml", "5")
    error = only_error(tmp_path, """
        game: t
        rules:
          - just a string
        """)
    assert "a rule is a mapping" in error.message
    assert_at(error, tmp_path / "g.yaml", "just a string")


def test_two_rules_with_one_name(tmp_path):
    error = only_error(tmp_path, """
        game: t
        rules:
          - name: a
            when: "True"
            then: "end game"
          - name: a
            when: "True"
            then: "end game"
        """)
    path = tmp_path / "g.yaml"
    assert "two rules are named 'a'" in error.message
    assert_at(error, path, "name: a", nth=2)


def test_priority_must_be_a_number(tmp_path):
    error = only_error(tmp_path, """
        game: t
        rules:
          - name: a
            priority: high
            when: "True"
            then: "end game"
        """)
    assert "priority must be a number" in error.message
    assert_at(error, tmp_path / "g.yaml", "high")


# ========================================================= bad expressions
def test_double_equals_sign_in_an_action(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          a: 0
          b: 0
        rules:
          - name: r
            when: "a == 0"
            then: "a = = b"
        """)
    assert "unexpected '='" in error.message
    assert_at(error, tmp_path / "g.yaml", "= = b", offset=2)  # the second '='


def test_assignment_in_a_condition_gets_a_hint(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          x: 0
        rules:
          - name: r
            when: "x ="
            then: "end game"
        """)
    assert "unexpected '='" in error.message
    assert "==" in error.hint
    assert_at(error, tmp_path / "g.yaml", "x =", offset=2)


def test_condition_that_ends_too_early(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          x: 0
        rules:
          - name: r
            when: "x == (1 +"
            then: "end game"
        """)
    assert "condition of rule 'r'" in error.message
    assert error.location.line == 6


def test_missing_indentation_after_if(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          x: 0
        rules:
          - name: r
            when: "x == 0"
            then: |
              if x == 0:
              x = 1
        """)
    assert "indent" in (error.hint or "") + error.message
    assert_at(error, tmp_path / "g.yaml", "x = 1")


def test_unexpected_character(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          x: "3 $ 4"
        """)
    assert "unexpected character '$'" in error.message
    assert_at(error, tmp_path / "g.yaml", "$")


def test_error_inside_a_block_scalar_points_at_its_line(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          total: 0
        rules:
          - name: r
            when: "total == 0"
            then: |
              total = 1
              if total > 0:
                  total = totl + 1
        """)
    assert "unknown name 'totl'" in error.message
    assert error.hint == "did you mean 'total'?"
    assert_at(error, tmp_path / "g.yaml", "totl")


def test_error_in_a_list_of_actions_points_at_its_item(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          x: 0
        rules:
          - name: r
            when: "x == 0"
            then:
              - x = 1
              - x = zz
        """)
    assert "unknown name 'zz'" in error.message
    assert_at(error, tmp_path / "g.yaml", "zz")


@pytest.mark.parametrize("where, expr", [
    ("condition", "scroe > 1"),
    ("action", "x = scroe"),
    ("function", "scroe"),
    ("move", "scroe"),
])
def test_unknown_name_with_hint_everywhere(tmp_path, where, expr):
    rules = 'rules:\n  - name: r\n    when: "True"\n    then: "end game"\n'
    functions = moves = ""
    if where == "condition":
        rules = f'rules:\n  - name: r\n    when: "{expr}"\n    then: "end game"\n'
    elif where == "action":
        rules = f'rules:\n  - name: r\n    when: "True"\n    then: "{expr}"\n'
    elif where == "function":
        functions = f'functions:\n  "f(a)": "a + {expr}"\n'
    else:
        moves = f'moves:\n  m:\n    choose: "v in range(3)"\n    legal: "v < {expr}"\n'
    text = "game: t\nstate:\n  x: 0\n  score: 0\n" + functions + moves + rules
    error = only_error(tmp_path, text)
    assert error.message == "unknown name 'scroe'"
    assert error.hint == "did you mean 'score'?"
    assert_at(error, tmp_path / "g.yaml", "scroe")


# ================================================================ arity
def test_wrong_number_of_arguments_to_a_builtin(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          x: 0
          y: "len([1], [2])"
        """)
    assert "'len' takes 1 argument(s), given 2" in error.message
    assert_at(error, tmp_path / "g.yaml", "len(")


def test_unknown_keyword_to_a_builtin(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          y: "sorted([1], nokey=1)"
        """)
    assert "'sorted' has no keyword argument 'nokey'" in error.message
    assert "key" in error.hint and "reverse" in error.hint
    assert_at(error, tmp_path / "g.yaml", "sorted")


def test_wrong_number_of_arguments_to_a_user_function(tmp_path):
    error = only_error(tmp_path, """
        game: t
        functions:
          "add(a, b)": "a + b"
        state:
          y: "1 + add(1)"
        """)
    assert "'add' takes 2 argument(s) (a, b), given 1" in error.message
    assert_at(error, tmp_path / "g.yaml", "add(1)")


def test_calling_a_function_that_does_not_exist(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          y: "lenn([1])"
        """)
    assert "unknown name 'lenn'" in error.message
    assert error.hint == "did you mean 'len'?"
    assert_at(error, tmp_path / "g.yaml", "lenn")


# ========================================================== type checks
def test_string_plus_number(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          y: '"a" + 1'
        """)
    assert "cannot apply '+' to str and int" in error.message
    assert "str(" in error.hint
    assert_at(error, tmp_path / "g.yaml", "+")


def test_comparing_a_str_param_with_an_int(tmp_path):
    error = only_error(tmp_path, """
        game: t
        params:
          mode: {type: str, default: easy}
        rules:
          - name: r
            when: "mode == 1"
            then: "end game"
        """)
    assert "comparing str with int" in error.message
    assert_at(error, tmp_path / "g.yaml", "==")


def test_ordering_a_str_param_against_an_int(tmp_path):
    error = only_error(tmp_path, """
        game: t
        params:
          mode: easy
        rules:
          - name: r
            when: "mode > 1"
            then: "end game"
        """)
    assert "cannot order str and int" in error.message
    assert_at(error, tmp_path / "g.yaml", ">")


def test_assigning_a_str_to_an_int_state_variable(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          total: 0
        rules:
          - name: r
            when: "total == 0"
            then: "total = 'many'"
        """)
    assert "'total' holds int, but this assigns str" in error.message
    assert_at(error, tmp_path / "g.yaml", "total = ")


def test_assigning_a_str_to_an_int_player_variable(tmp_path):
    error = only_error(tmp_path, """
        game: t
        player_state:
          score: 0
        rules:
          - name: r
            for: "p in players"
            when: "p.score == 0"
            then: "p.score = 'x'"
        """)
    assert "'score' holds int" in error.message
    assert error.location.line == 8


def test_membership_in_a_number(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          y: "1 in 5"
        """)
    assert "'in' needs a collection" in error.message
    assert_at(error, tmp_path / "g.yaml", "in 5")


def test_augmented_assignment_of_a_str_to_an_int_is_refused_before_running(tmp_path):
    errors_of(tmp_path, """
        game: t
        state:
          x: 0
        rules:
          - name: r
            when: "x == 0"
            then: "x += 'a'"
        """)


# =============================================================== references
def test_ask_for_a_move_that_does_not_exist(tmp_path):
    error = only_error(tmp_path, """
        game: t
        moves:
          take: {then: "pass"}
        rules:
          - name: r
            when: "True"
            then: "ask players[0] to no_such_move"
        """)
    assert "unknown move 'no_such_move'" in error.message
    assert_at(error, tmp_path / "g.yaml", "no_such_move")


def test_ask_for_a_misspelt_move_gets_a_hint(tmp_path):
    error = only_error(tmp_path, """
        game: t
        moves:
          take: {then: "pass"}
        rules:
          - name: r
            when: "True"
            then: "ask players[0] to take, tak"
        """)
    assert error.hint == "did you mean 'take'?"
    assert_at(error, tmp_path / "g.yaml", "tak\"")


def test_move_to_a_zone_that_does_not_exist(tmp_path):
    error = only_error(tmp_path, """
        game: t
        zones:
          table: {}
          pile: {}
        rules:
          - name: r
            when: "True"
            then: "move [c for c in table] to piles"
        """)
    assert "unknown name 'piles'" in error.message
    assert error.hint == "did you mean 'pile'?"
    assert_at(error, tmp_path / "g.yaml", "piles")


def test_cards_start_in_a_zone_that_does_not_exist(tmp_path):
    error = only_error(tmp_path, """
        game: t
        cards:
          attributes: {n: [1, 2]}
          start: nowhere
        zones:
          deck: {}
        """)
    assert "nowhere" in error.message
    assert_at(error, tmp_path / "g.yaml", "nowhere")


def test_unknown_phase(tmp_path):
    error = only_error(tmp_path, """
        game: t
        phases: [deal, play]
        rules:
          - name: r
            phase: plya
            when: "True"
            then: "end game"
        """)
    assert "unknown phase 'plya'" in error.message
    assert error.hint == "did you mean 'play'?"
    assert_at(error, tmp_path / "g.yaml", "plya")


def test_phase_without_phases_section(tmp_path):
    error = only_error(tmp_path, """
        game: t
        rules:
          - name: r
            phase: play
            when: "True"
            then: "end game"
        """)
    assert "unknown phase 'play'" in error.message
    assert "phases:" in error.hint


def test_unknown_strategy(tmp_path):
    error = only_error(tmp_path, """
        game: t
        strategy: newest
        """)
    assert "unknown conflict-resolution strategy 'newest'" in error.message
    for name in ("declaration", "specificity", "recency", "breadth"):
        assert name in error.hint
    assert_at(error, tmp_path / "g.yaml", "newest")


def test_unknown_table_attribute(tmp_path):
    error = only_error(tmp_path, """
        game: t
        cards:
          attributes: {rank: [1, 2]}
          tables:
            points: {of: rnk, values: {1: 11}}
        zones:
          deck: {}
        """)
    assert "unknown attribute 'rnk'" in error.message
    assert error.hint == "did you mean 'rank'?"
    assert_at(error, tmp_path / "g.yaml", "rnk")


# ================================================================= variants
BASE = """
game: base
state:
  x: 0
rules:
  - name: start_rule
    when: "x == 0"
    then: "x = 1"
  - name: stop_rule
    when: "x == 1"
    then: "end game"
"""


def test_extends_a_missing_file(tmp_path):
    error = only_error(tmp_path, """
        extends: missing.yaml
        game: v
        """, name="v.yaml")
    assert "base rule file 'missing.yaml' not found" in error.message
    assert_at(error, tmp_path / "v.yaml", "missing.yaml")


def test_override_of_a_rule_the_base_lacks(tmp_path):
    write(tmp_path, BASE, "base.yaml")
    error = only_error(tmp_path, """
        extends: base.yaml
        override:
          - name: stop_rul
            when: "x == 1"
            then: "end game"
        """, name="v.yaml")
    assert "override: the base has no rule or phase step named 'stop_rul'" in error.message
    assert error.hint == "did you mean 'stop_rule'?"
    assert_at(error, tmp_path / "v.yaml", "name: stop_rul")


def test_remove_of_a_rule_the_base_lacks(tmp_path):
    write(tmp_path, BASE, "base.yaml")
    error = only_error(tmp_path, """
        extends: base.yaml
        remove: [start_rule, nonesuch]
        """, name="v.yaml")
    assert "remove: the base has no rule, phase step or variable named 'nonesuch'" in error.message
    assert_at(error, tmp_path / "v.yaml", "nonesuch")


def test_adding_a_rule_the_base_already_has(tmp_path):
    write(tmp_path, BASE, "base.yaml")
    error = only_error(tmp_path, """
        extends: base.yaml
        rules:
          - name: stop_rule
            when: "True"
            then: "end game"
        """, name="v.yaml")
    assert "already has a rule named 'stop_rule'" in error.message
    assert "override" in error.hint


def test_override_without_extends(tmp_path):
    error = only_error(tmp_path, """
        game: t
        override: []
        """)
    assert "needs 'extends:'" in error.message
    assert_at(error, tmp_path / "g.yaml", "override")


def test_errors_in_a_variant_point_into_the_variant(tmp_path):
    write(tmp_path, BASE, "base.yaml")
    error = only_error(tmp_path, """
        extends: base.yaml
        override:
          - name: stop_rule
            when: "x == 1"
            then: "end game winner nobody"
        """, name="v.yaml")
    assert "unknown name 'nobody'" in error.message
    assert_at(error, tmp_path / "v.yaml", "nobody")


def test_a_valid_variant_loads_and_runs(tmp_path):
    # a control for the variant tests above: the override takes effect
    write(tmp_path, BASE, "base.yaml")
    path = write(tmp_path, """
        extends: base.yaml
        override:
          - name: stop_rule
            when: "x == 1"
            then: "end game winner players[1]"
        """, name="v.yaml")
    game = Game(load_program(path, {}), 0)
    game.start()
    assert game.over and game.winners == (1,)


# =================================================================== params
PARAMS = """
game: t
params:
  n: {type: int, default: 2, min: 1, max: 5}
  fast: false
  level: {type: str, default: easy, choices: [easy, hard]}
rules:
  - name: r
    when: "True"
    then: "end game"
"""


@pytest.mark.parametrize("overrides, words", [
    ({"n": "abc"}, "param 'n' is int; 'abc' is not"),
    ({"n": "9"}, "above the maximum 5"),
    ({"n": "0"}, "below the minimum 1"),
    ({"n": "2.5"}, "param 'n' is int"),
    ({"fast": "maybe"}, "param 'fast' is bool"),
    ({"level": "medium"}, "not one of easy, hard"),
    ({"nn": "1"}, "did you mean 'n'?"),
    ({"speed": "1"}, "unknown param 'speed'"),
])
def test_bad_param_override_is_a_param_error(tmp_path, overrides, words):
    path = write(tmp_path, PARAMS)
    with pytest.raises(ParamError) as info:
        load_program(path, overrides)
    assert words in str(info.value)
    assert "Traceback" not in str(info.value)


def test_good_param_overrides_are_converted(tmp_path):
    path = write(tmp_path, PARAMS)
    program = load_program(path, {"n": "5", "fast": "yes", "level": "hard"})
    assert program.param_values == {"n": 5, "fast": True, "level": "hard"}


def test_bad_param_default_is_a_located_rule_error(tmp_path):
    error = only_error(tmp_path, """
        game: t
        params:
          n: {type: int, default: 9, max: 5}
        """)
    assert "default 9 is above the maximum 5" in error.message
    assert_at(error, tmp_path / "g.yaml", "9")


def test_bad_param_type(tmp_path):
    error = only_error(tmp_path, """
        game: t
        params:
          n: {type: integer, default: 1}
        """)
    assert "type 'integer'" in error.message
    assert_at(error, tmp_path / "g.yaml", "integer")


@pytest.mark.parametrize("bound", ["min: low", "max: [5]", "min: {a: 1}"])
def test_non_numeric_param_bound_is_a_rule_error(tmp_path, bound):
    error = only_error(tmp_path, f"""
        game: t
        params:
          n: {{type: int, default: 1, {bound}}}
        """)
    assert_at(error, tmp_path / "g.yaml", bound.split(": ")[1])


def test_param_choices_must_be_a_list(tmp_path):
    error = only_error(tmp_path, """
        game: t
        params:
          n: {type: int, default: 1, choices: 3}
        """)
    assert_at(error, tmp_path / "g.yaml", "3")


# ===================================================== several errors at once
def test_every_error_of_a_file_is_reported_in_file_order(tmp_path):
    errors = errors_of(tmp_path, """
        game: t
        state:
          x: 0
        functions:
          "f(a)": "a + undefined_one"
        rules:
          - name: r
            when: "x === 1"
            then: "x = 'text'"
          - name: s
            when: "True"
            wen: "True"
            then: "ask players[0] to fly"
        """)
    path = tmp_path / "g.yaml"
    found = [(e.location.line, e.location.col) for e in errors]
    assert found == sorted(found)
    messages = " | ".join(e.message for e in errors)
    for words in ("undefined_one", "unexpected", "'x' holds int", "unknown key 'wen'", "unknown move 'fly'"):
        assert words in messages
    assert len(errors) == 5
    assert all(e.location.file == str(path) for e in errors)


# ============================================================ runtime faults
def test_a_rule_that_loops_forever_is_cut_and_named(tmp_path):
    with pytest.raises(GameError) as info:
        start(tmp_path, """
            game: t
            state:
              x: 0
            rules:
              - name: count_up_forever
                when: "x >= 0"
                then: "x += 1"
            """)
    error = info.value
    assert "runaway" in error.message
    assert "count_up_forever" in error.message
    assert error.location is not None and error.location.line == 5


def test_a_cycle_of_two_rules_is_cut_at_max_firings_and_names_both(tmp_path):
    with pytest.raises(GameError) as info:
        start(tmp_path, """
            game: t
            max_firings: 200
            state:
              x: 0
            rules:
              - name: ping
                when: "x % 2 == 0"
                then: "x += 1"
              - name: pong
                when: "x % 2 == 1"
                then: "x += 1"
            """)
    assert "ping" in info.value.message and "pong" in info.value.message
    assert "200" in info.value.message


def test_a_stuck_game_names_the_phase(tmp_path):
    with pytest.raises(GameError) as info:
        start(tmp_path, """
            game: t
            phases: [deal, play]
            state:
              x: 0
            rules:
              - name: only_in_play
                phase: play
                when: "x == 0"
                then: "end game"
            """)
    message = str(info.value)
    assert "stuck" in message
    assert "'deal'" in message
    assert "x=0" in message  # and the state


def test_a_game_stuck_after_a_move_is_an_error(tmp_path):
    game = start(tmp_path, """
        game: t
        state:
          done: "False"
        moves:
          go: {then: "done = True"}
        rules:
          - name: first
            when: "not done"
            then: "ask players[0] to go"
        """)
    with pytest.raises(GameError) as info:
        game.apply(game.options()[0])
    assert "stuck" in str(info.value)


def test_division_by_zero_in_an_action_points_at_its_line(tmp_path):
    with pytest.raises(GameError) as info:
        start(tmp_path, """
            game: t
            state:
              x: 0
            rules:
              - name: divide
                when: "x == 0"
                then: |
                  x = 1
                  x = 10 // (x - 1)
            """)
    error = info.value
    path = tmp_path / "g.yaml"
    assert "ZeroDivisionError" in error.message
    assert "divide" in error.message
    assert (error.location.line, error.location.col) == position(path, "x = 10")
    assert str(error).startswith(f"{path}:{error.location.line}:")


def test_a_fault_in_a_function_points_at_the_function(tmp_path):
    with pytest.raises(GameError) as info:
        start(tmp_path, """
            game: t
            functions:
              "pick(xs)": "xs[5]"
            state:
              y: "pick([1, 2])"
            """)
    assert "IndexError" in info.value.message
    assert info.value.location.line == 3


def test_runtime_errors_are_never_plain_python_exceptions(tmp_path):
    for action in ("x = int('abc')", "x = len(5)", "move 3 to pile", "ask 5 to go", "deal 1 from pile to [3]"):
        text = f"""
            game: t
            zones:
              pile: {{}}
            state:
              x: 0
            moves:
              go: {{then: "pass"}}
            rules:
              - name: r
                when: "x == 0"
                then: "{action}"
            """
        with pytest.raises(NaipesError):
            start(tmp_path, text)


# ================================================= edge cases and known bugs
def test_a_rule_without_when_loads(tmp_path):
    game = start(tmp_path, """
        game: t
        rules:
          - name: always
            then: "end game winner players[0]"
        """)
    assert game.winners == (0,)


def test_a_rule_with_boolean_when_loads(tmp_path):
    game = start(tmp_path, """
        game: t
        rules:
          - name: always
            when: true
            then: "end game winner players[0]"
        """)
    assert game.winners == (0,)


def test_malformed_card_tables_are_rule_errors(tmp_path):
    errors_of(tmp_path, """
        game: t
        cards:
          attributes: {rank: [1, 2]}
          tables: 3
        zones:
          deck: {}
        """)


def test_card_table_values_must_be_a_mapping(tmp_path):
    errors_of(tmp_path, """
        game: t
        cards:
          attributes: {rank: [1, 2]}
          tables:
            points: {of: rank, values: 3}
        zones:
          deck: {}
        """)


def test_each_mistake_is_reported_once(tmp_path):
    errors = errors_of(tmp_path, """
        game: t
        state: 5
        """)
    assert len(errors) == 1


@pytest.mark.parametrize("when", [
    '"\\"a\\" + zz"',             # escaped quotes in a double-quoted scalar
    "'''a'' + zz'",               # doubled quote in a single-quoted scalar
    "x == 0 and\n      zz > 1",   # plain scalar over two lines
    ">\n      x == 0 and\n      zz > 1",   # folded block scalar
])
def test_locations_survive_yaml_quoting_and_folding(tmp_path, when):
    error = only_error(tmp_path, "game: t\nstate:\n  x: 0\nrules:\n  - name: r\n"
                                 f"    when: {when}\n    then: end game\n")
    assert "unknown name 'zz'" in error.message
    assert_at(error, tmp_path / "g.yaml", "zz")


def test_inconsistent_dedent_points_at_the_bad_line(tmp_path):
    error = only_error(tmp_path, """
        game: t
        state:
          x: 0
        rules:
          - name: r
            when: "x == 0"
            then: |
              if x == 0:
                  x = 1
                x = 2
        """)
    assert "indentation" in error.message
    assert error.location.line == position(tmp_path / "g.yaml", "x = 2")[0]


def test_players_with_a_null_bound_is_a_rule_error(tmp_path):
    error = only_error(tmp_path, """
        game: t
        players: {min: null, max: 2}
        """)
    assert "players" in error.message


def test_card_attribute_names_must_be_names(tmp_path):
    error = only_error(tmp_path, """
        game: t
        cards:
          attributes: {colour: [r, g], value int}
        zones:
          deck: {}
        """)
    assert_at(error, tmp_path / "g.yaml", "value int")


@pytest.mark.parametrize("text", [
    """
    game: t
    player_state:
      class: 0
    rules:
      - name: r
        when: "players[0].class == 0"
        then: "end game"
    """,
    """
    game: t
    cards:
      attributes: {import: [1, 2]}
    zones:
      deck: {}
    state:
      total: "sum(c.import for c in deck)"
    """,
])
def test_python_keywords_as_attribute_names_do_not_crash(tmp_path, text):
    try:
        start(tmp_path, text)
    except NaipesError:
        pass  # refusing the name with a located error is fine too


def test_move_names_must_be_names(tmp_path):
    error = only_error(tmp_path, """
        game: t
        moves:
          bad move: {then: "pass"}
        """)
    assert_at(error, tmp_path / "g.yaml", "bad move")


@pytest.mark.parametrize("text", [
    """
    game: t
    moves:
      go: {label: "", then: "end game"}
    rules:
      - name: r
        when: "True"
        then: "ask players[0] to go"
    """,
    """
    game: t
    result: ""
    rules:
      - name: r
        when: "True"
        then: "end game"
    """,
])
def test_empty_label_or_result_is_a_rule_error(tmp_path, text):
    errors_of(tmp_path, text)


def test_empty_condition_is_a_rule_error(tmp_path):
    errors_of(tmp_path, """
        game: t
        rules:
          - name: r
            when: ""
            then: "end game"
        """)


def test_unknown_default_ai_is_a_located_rule_error(tmp_path):
    error = only_error(tmp_path, """
        game: t
        players: {min: 2, max: 2, ai: bogus}
        """)
    assert_at(error, tmp_path / "g.yaml", "bogus")
