"""Every mistake in a rule file is a located error; runtime faults are GameErrors.

Each test writes a small rule file with one mistake, loads it, and checks
the exception type, the message, and that ``location`` (file, line, col)
points at the offending text.  Most are one table, LOCATED: (text, message,
where, hint) per mistake.  The expected position is found by searching
the written file for the offending text, so the tests say *what* must be
pointed at, not a number copied from a run.
"""
from __future__ import annotations

import contextlib

import pytest

from naipes import load_program
from naipes.errors import GameError, NaipesError, ParamError, RuleError
from naipes.runtime.game import Game

from helpers import load_errors, write_rules


def errors_of(tmp_path, text: str, params: dict | None = None, name: str = "g.yaml") -> list[RuleError]:
    """Load `text` expecting failure; every RuleError reported, in order."""
    return load_errors(write_rules(tmp_path, text, name), params)


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
    game = Game(load_program(write_rules(tmp_path, text), {}), seed)
    game.start()
    return game


END = """
  - name: finish
    priority: -100
    when: "True"
    then: "end game"
"""


# The base of the variants in the tests below.
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


# ============================================ one mistake, one located error
def one_rule_doing(*lines: str) -> str:
    """A rule file whose one rule, r, runs the block of `lines` (as indented there) while the variable x is 0."""
    block = "".join(f"      {line}\n" for line in lines)
    return f'game: t\nstate:\n  x: 0\nrules:\n  - name: r\n    when: "x == 0"\n    then: |\n{block}'


def case(ident: str, text: str, message: str | tuple[str, ...], at: str | tuple[str, int, int] | int,
         hint: str | tuple[str, ...] | None = None, name: str = "g.yaml"):
    """Loading `text` (written as `name`, beside BASE as base.yaml) gives exactly one error whose message
    contains `message` (each part of a tuple) and whose hint contains `hint`, located at `at`: the first
    occurrence of a text in the file, (text, nth occurrence, columns after it), or a line number."""
    return pytest.param(text, message, at, hint, name, id=ident)


LOCATED = [
    case('yaml_syntax_error_is_located', """
        game: t
        title: a: b
        """, 'YAML syntax', ': b'),
    case('yaml_bad_indentation_is_located', """
        game: t
        state:
          x: 1
           y: 2
        """, 'YAML', 4),
    case('unknown_section_with_did_you_mean', """
        game: t
        rulez: []
        """, "unknown section 'rulez'", 'rulez', hint="did you mean 'rules'?"),
    case('two_rules_with_one_name', """
        game: t
        rules:
          - name: a
            when: "True"
            then: "end game"
          - name: a
            when: "True"
            then: "end game"
        """, "two rules are named 'a'", ('name: a', 2, 0)),
    case('priority_must_be_a_number', """
        game: t
        rules:
          - name: a
            priority: high
            when: "True"
            then: "end game"
        """, 'priority must be a number', 'high'),
    case('double_equals_sign_in_an_action', """
        game: t
        state:
          a: 0
          b: 0
        rules:
          - name: r
            when: "a == 0"
            then: "a = = b"
        """, "unexpected '='", ('= = b', 1, 2)),
    case('assignment_in_a_condition_gets_a_hint', """
        game: t
        state:
          x: 0
        rules:
          - name: r
            when: "x ="
            then: "end game"
        """, "unexpected '='", ('x =', 1, 2), hint='=='),
    case('misspelt_statement_word_gets_a_did_you_mean', one_rule_doing("x = 1", "anounce 'x'"),
         "unexpected", "'x'", hint="did you mean 'announce'?"),
    case('misspelt_goto_in_a_block', one_rule_doing("if x == 0:", "    gotoo play"),
         "unexpected", "play", hint="did you mean 'goto'?"),
    # what was expected is said in the language's own signs and words, never the grammar's names for them
    case('expected_signs_are_written_as_the_file_writes_them', one_rule_doing("x = 1", "anounce x"),
         ("expected '(', '+=', '.', '='",), ('anounce x', 1, 8), hint="did you mean 'announce'?"),
    case('expected_values_are_written_as_the_file_writes_them', one_rule_doing("let y == 1"),
         ("unexpected '='", "'-'", "'{'", "a name"), ('= 1', 1, 0)),
    case('a_misspelt_second_word_of_a_statement_is_named', one_rule_doing("end gaem"),
         ("unexpected 'gaem'", "expected 'game'"), 'gaem', hint="did you mean 'game'?"),
    case('a_function_body_misspelt_at_its_first_word_gets_a_did_you_mean', """
        game: t
        functions:
          "f(a)": |
            lett b = a
            return b
        """, "unexpected 'b' in function 'f'", ('lett b', 1, 5), hint="did you mean 'let'?"),
    case('a_variable_named_like_a_statement_cannot_be_assigned', one_rule_doing("x = 1", "deal += 1"),
         "unexpected '='", ('deal +=', 1, 6), hint="'deal' begins a statement"),
    case('a_variable_named_like_a_statement_is_refused_where_it_is_declared', """
        game: t
        state:
          move: 0
        rules:
          - name: r
            when: "move == 0"
            then: "end game"
        """, ("the variable 'move' is named like the statement 'move ...'", "could never be assigned"), 'move: 0',
         hint="another name"),
    case('a_local_named_like_a_statement_is_refused_where_it_is_made', one_rule_doing("let deal = 1", "x = deal"),
         ("the local 'deal' is named like the statement 'deal ...'", "could never be assigned again"),
         ('deal = 1', 1, 0), hint="another name"),
    case('an_assignment_where_a_comparison_is_expected_in_actions', one_rule_doing("if x = 1:", "    pass"),
         "unexpected '='", ('x = 1', 1, 2), hint="use '=='"),
    case('condition_that_ends_too_early', """
        game: t
        state:
          x: 0
        rules:
          - name: r
            when: "x == (1 +"
            then: "end game"
        """, "condition of rule 'r'", 6),
    case('unexpected_character', """
        game: t
        state:
          x: "3 $ 4"
        """, "unexpected character '$'", '$'),
    case('error_inside_a_block_scalar_points_at_its_line', """
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
        """, "unknown name 'totl'", 'totl', hint="did you mean 'total'?"),
    case('missing_indentation_after_if', one_rule_doing("if x == 0:", "x = 1"),
         "expected an indented block", 'x = 1', hint="indented"),
    case('inconsistent_dedent_points_at_the_bad_line', one_rule_doing("if x == 0:", "    x = 1", "  x = 2"),
         "inconsistent indentation", 'x = 2'),
    case('error_in_a_list_of_actions_points_at_its_item', """
        game: t
        state:
          x: 0
        rules:
          - name: r
            when: "x == 0"
            then:
              - x = 1
              - x = zz
        """, "unknown name 'zz'", 'zz'),
    case('wrong_number_of_arguments_to_a_builtin', """
        game: t
        state:
          x: 0
          y: "len([1], [2])"
        """, "'len' takes 1 argument(s), given 2", 'len('),
    case('wrong_number_of_arguments_to_a_user_function', """
        game: t
        functions:
          "add(a, b)": "a + b"
        state:
          y: "1 + add(1)"
        """, "'add' takes 2 argument(s) (a, b), given 1", 'add(1)'),
    case('calling_a_function_that_does_not_exist', """
        game: t
        state:
          y: "lenn([1])"
        """, "unknown name 'lenn'", 'lenn', hint="did you mean 'len'?"),
    case('string_plus_number', """
        game: t
        state:
          y: '"a" + 1'
        """, "cannot apply '+' to str and int", '+', hint='str('),
    case('comparing_a_str_param_with_an_int', """
        game: t
        params:
          mode: {type: str, default: easy}
        rules:
          - name: r
            when: "mode == 1"
            then: "end game"
        """, 'comparing str with int', '=='),
    case('ordering_a_str_param_against_an_int', """
        game: t
        params:
          mode: easy
        rules:
          - name: r
            when: "mode > 1"
            then: "end game"
        """, 'cannot order str and int', '>'),
    case('assigning_a_str_to_an_int_state_variable', """
        game: t
        state:
          total: 0
        rules:
          - name: r
            when: "total == 0"
            then: "total = 'many'"
        """, "'total' holds int, but this assigns str", 'total = '),
    case('assigning_a_str_to_an_int_player_variable', """
        game: t
        player_state:
          score: 0
        rules:
          - name: r
            for: "p in players"
            when: "p.score == 0"
            then: "p.score = 'x'"
        """, "'score' holds int", 8),
    case('membership_in_a_number', """
        game: t
        state:
          y: "1 in 5"
        """, "'in' needs a collection", 'in 5'),
    case('ask_for_a_move_that_does_not_exist', """
        game: t
        moves:
          take: {then: "pass"}
        rules:
          - name: r
            when: "True"
            then: "ask players[0] to no_such_move"
        """, "unknown move 'no_such_move'", 'no_such_move'),
    case('move_to_a_zone_that_does_not_exist', """
        game: t
        zones:
          table: {}
          pile: {}
        rules:
          - name: r
            when: "True"
            then: "move [c for c in table] to piles"
        """, "unknown name 'piles'", 'piles', hint="did you mean 'pile'?"),
    case('cards_start_in_a_zone_that_does_not_exist', """
        game: t
        cards:
          attributes: {n: [1, 2]}
          start: nowhere
        zones:
          deck: {}
        """, 'nowhere', 'nowhere'),
    case('unknown_phase', """
        game: t
        phases: [deal, play]
        rules:
          - name: r
            phase: plya
            when: "True"
            then: "end game"
        """, "unknown phase 'plya'", 'plya', hint="did you mean 'play'?"),
    case('unknown_table_attribute', """
        game: t
        cards:
          attributes: {rank: [1, 2]}
          tables:
            points: {of: rnk, values: {1: 11}}
        zones:
          deck: {}
        """, "unknown attribute 'rnk'", 'rnk', hint="did you mean 'rank'?"),
    case('extends_a_missing_file', """
        extends: missing.yaml
        game: v
        """, "base rule file 'missing.yaml' not found", 'missing.yaml', name='v.yaml'),
    case('extends_a_misspelt_name_of_a_file_beside_it', """
        extends: bsae
        game: v
        """, "base rule file 'bsae' not found", 'bsae', hint="did you mean 'base'?", name='v.yaml'),
    case('override_of_a_rule_the_base_lacks', """
        extends: base.yaml
        override:
          - name: stop_rul
            when: "x == 1"
            then: "end game"
        """, "override: the base has no rule or phase step named 'stop_rul'", 'name: stop_rul',
         hint="did you mean 'stop_rule'?", name='v.yaml'),
    case('remove_of_a_rule_the_base_lacks', """
        extends: base.yaml
        remove: [start_rule, nonesuch]
        """, "remove: the base has no rule, phase step, variable or param named 'nonesuch'", 'nonesuch', name='v.yaml'),
    case('override_without_extends', """
        game: t
        override: []
        """, "needs 'extends:'", 'override'),
    case('errors_in_a_variant_point_into_the_variant', """
        extends: base.yaml
        override:
          - name: stop_rule
            when: "x == 1"
            then: "end game winner nobody"
        """, "unknown name 'nobody'", 'nobody', name='v.yaml'),
    case('bad_param_default_is_a_located_rule_error', """
        game: t
        params:
          n: {type: int, default: 9, max: 5}
        """, 'default 9 is above the maximum 5', '9'),
    case('bad_param_type', """
        game: t
        params:
          n: {type: integer, default: 1}
        """, "type 'integer'", 'integer'),
    case('duplicate_key_points_at_the_second_and_names_the_first', """
        game: t
        state:
          x: 1
          x: 2
        """, "duplicate key 'x'", 'x: 2', hint='g.yaml:3:3'),
    case('a_section_of_the_wrong_shape', """
        game: t
        rules: 5
        """, "'rules' must be a list", '5'),
    case('a_rule_that_is_not_a_mapping', """
        game: t
        rules:
          - just a string
        """, 'a rule is a mapping', 'just a string'),
    case('unknown_keyword_to_a_builtin', """
        game: t
        state:
          y: "sorted([1], nokey=1)"
        """, "'sorted' has no keyword argument 'nokey'", 'sorted', hint=('key', 'reverse')),
    case('ask_for_a_misspelt_move_gets_a_hint', """
        game: t
        moves:
          take: {then: "pass"}
        rules:
          - name: r
            when: "True"
            then: "ask players[0] to take, tak"
        """, "unknown move 'tak'", 'tak"', hint="did you mean 'take'?"),
    case('phase_without_phases_section', """
        game: t
        rules:
          - name: r
            phase: play
            when: "True"
            then: "end game"
        """, "unknown phase 'play'", 'play', hint='phases:'),
    case('unknown_strategy', """
        game: t
        strategy: newest
        """, "unknown conflict-resolution strategy 'newest'", 'newest',
         hint=('declaration', 'specificity', 'recency', 'breadth')),
    case('param_choices_must_be_a_list', """
        game: t
        params:
          n: {type: int, default: 1, choices: 3}
        """, "'choices' is a list", '3'),
    case('players_with_a_null_bound', """
        game: t
        players: {min: null, max: 2}
        """, 'players.min must be a positive whole number', 'null'),
    case('card_attribute_names_must_be_names', """
        game: t
        cards:
          attributes: {colour: [r, g], value int}
        zones:
          deck: {}
        """, "'value int' is not a valid card attribute name", 'value int'),
    case('move_names_must_be_names', """
        game: t
        moves:
          bad move: {then: "pass"}
        """, "'bad move' is not a valid move name", 'bad move'),
    case('unknown_default_ai', """
        game: t
        players: {min: 2, max: 2, ai: bogus}
        """, "unknown agent 'bogus'", 'bogus', hint='random, minimax'),
    case('a_verb_is_a_text_or_words_to_replace', """
        game: t
        moves:
          take: {then: "pass", verb: [takes]}
        """, "move 'take': 'verb' is a text", '[takes]'),
    case('a_text_cannot_close_the_brackets_it_is_read_in', """
        game: t
        state:
          x: 0
        rules:
          - name: r
            when: "x > 0) or (True"
            then: "end game"
        """, "unexpected ')' in condition of rule 'r': it closes a bracket the text never opened", ('0)', 1, 1)),
    case('doc_is_a_text', """
        game: t
        doc: {aim: win}
        """, "'doc' is a text", '{aim: win}'),
    # Python's statements the language leaves out: said at the word, with what to write instead
    case('there_is_no_while', one_rule_doing("while x < 3:", "    x += 1"),
         "the rule language has no 'while' statement (actions of rule 'r')", 'while', hint="for NAME in LIST"),
    case('there_is_no_break', one_rule_doing("for c in [1, 2]:", "    break"),
         "no 'break' statement", 'break', hint="no way out of a loop"),
    case('there_is_no_import', one_rule_doing("import os"), "no 'import' statement", 'import', hint="imports nothing"),
    case('there_is_no_try', one_rule_doing("try:", "    x = 1"), "no 'try' statement", 'try'),
    case('there_is_no_def_in_a_function', """
        game: t
        functions:
          "f(a)": |
            def g(b):
                return b
            return a
        """, "no 'def' statement (function 'f')", 'def', hint="under 'functions:'"),
    # a variable named as a built-in, a name of the engine's or a param: said which
    case('a_variable_named_as_a_built_in_says_so', """
        game: t
        state:
          count: 0
        """, "'count' is a built-in function: a variable or zone needs a name of its own", 'count'),
    case('a_variable_named_as_the_engines_own_says_so', """
        game: t
        state:
          phase: 0
        """, "'phase' is a name of the engine's own", ('phase', 1)),
    case('a_variable_named_as_a_param_says_so', """
        game: t
        params:
          goal: {default: 3}
        state:
          goal: 0
        """, "'goal' is already a param", ('goal', 2)),
    # a bare word where a text was meant
    case('a_bare_word_as_a_value_hints_at_quoting_it', """
        game: t
        state:
          mood: calm
        """, "unknown name 'calm'", 'calm', hint="\"'calm'\""),
]


@pytest.mark.parametrize("text, message, at, hint, name", LOCATED)
def test_a_mistake_is_one_located_error(tmp_path, text, message, at, hint, name):
    write_rules(tmp_path, BASE, "base.yaml")  # the base of the variants in the table
    error = only_error(tmp_path, text, name=name)
    for part in (message,) if isinstance(message, str) else message:
        assert part in error.message
    for part in () if hint is None else (hint,) if isinstance(hint, str) else hint:
        assert part in (error.hint or ""), error.hint
    if isinstance(at, int):
        assert error.location.line == at, str(error)
    else:
        assert_at(error, tmp_path / name, *((at,) if isinstance(at, str) else at))


# ====================================================================== YAML


def test_tab_indentation_is_a_yaml_error(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("game: t\n\tstate: 1\n")
    with pytest.raises(RuleError) as info:
        load_program(path, {})
    assert (info.value.location.line, info.value.location.col) == (2, 1)


def test_empty_file_and_non_mapping_file_are_errors(tmp_path):
    assert "empty" in only_error(tmp_path, "").message
    assert "mapping of sections" in only_error(tmp_path, "- a\n- b\n").message


def test_file_that_cannot_be_read_is_a_rule_error(tmp_path):
    with pytest.raises(RuleError):
        load_program(tmp_path / "nothing-here.yaml", {})


# ======================================================= sections and keys


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


# ========================================================= bad expressions


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


# ========================================================== type checks


def test_augmented_assignment_of_a_str_to_an_int_is_refused_before_running(tmp_path):
    errors_of(tmp_path, one_rule_doing("x += 'a'"))


# ================================================================= variants


def stop_rule_variant(tmp_path, section: str, then: str) -> str:
    """A variant of BASE (written as base.yaml) whose `section` (rules, override) has a stop_rule doing `then`."""
    write_rules(tmp_path, BASE, "base.yaml")
    return f'extends: base.yaml\n{section}:\n  - name: stop_rule\n    when: "x == 1"\n    then: "{then}"\n'


def test_adding_a_rule_the_base_already_has(tmp_path):
    error = only_error(tmp_path, stop_rule_variant(tmp_path, "rules", "end game"), name="v.yaml")
    assert "already has a rule named 'stop_rule'" in error.message
    assert "override" in error.hint


def test_every_name_a_variant_changes_that_the_base_lacks_is_reported_in_file_order(tmp_path):
    write_rules(tmp_path, BASE, "base.yaml")
    text = ('extends: base.yaml\noverride:\n  - name: stop_rul\n    when: ~\n  - name: nothing_like_it\n'
            '    then: "pass"\nremove: [strat_rule]\n')
    errors = load_errors(write_rules(tmp_path, text, "v.yaml"))
    assert [(e.location.line, e.message, e.hint) for e in errors] == [
        (3, "override: the base has no rule or phase step named 'stop_rul'", "did you mean 'stop_rule'?"),
        (5, "override: the base has no rule or phase step named 'nothing_like_it'", None),
        (7, "remove: the base has no rule, phase step, variable or param named 'strat_rule'",
         "did you mean 'start_rule'?")]


def test_a_valid_variant_loads_and_runs(tmp_path):
    # a control for the variant tests above: the override takes effect
    path = write_rules(tmp_path, stop_rule_variant(tmp_path, "override", "end game winner players[1]"), name="v.yaml")
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
    path = write_rules(tmp_path, PARAMS)
    with pytest.raises(ParamError) as info:
        load_program(path, overrides)
    assert words in str(info.value)
    assert "Traceback" not in str(info.value)


def test_good_param_overrides_are_converted(tmp_path):
    path = write_rules(tmp_path, PARAMS)
    program = load_program(path, {"n": "5", "fast": "yes", "level": "hard"})
    assert program.param_values == {"n": 5, "fast": True, "level": "hard"}


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


def test_dealing_to_a_zone_rather_than_a_list_of_zones_says_what_to_write(tmp_path):
    """An empty zone is an empty list of cards: dealt to as if it were the list of zones, it received nothing."""
    with pytest.raises(NaipesError, match=r"deals to a list of zones: write \[table\]") as info:
        start(tmp_path, """
            game: t
            cards:
              attributes: {rank: [1, 2, 3, 4]}
            zones:
              deck: {}
              table: {}
            setup: |
              move all_cards() to deck
              deal 2 from deck to table
            """)
    assert info.value.location.line == 9


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
    with contextlib.suppress(NaipesError):  # refusing the name with a located error is fine too
        start(tmp_path, text)


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

