"""A function's body written as statements: told apart from an expression by its first word."""
import pytest

from naipes import load_program

from helpers import load_errors

GAME = """\
game: t
players: {min: 2, max: 2, default: 2, ai: random}
cards:
  attributes:
    rank: [1, 2, 3]
  start: stock
zones:
  stock: {visibility: hidden}
functions:
  FUNCTION
phases:
  play:
rules:
  - name: r
    when: "True"
    then: "end game"
"""


def written(tmp_path, function):
    path = tmp_path / "g.yaml"
    path.write_text(GAME.replace("FUNCTION", function), encoding="utf-8")
    return path


@pytest.mark.parametrize("body, said", [
    ("move x to stock", "a function cannot move"),
    ("end turn", "'end turn' belongs in a move's effect"),
    ("show x", "a function cannot show"),
])
def test_an_action_in_a_function_is_refused_as_an_action(tmp_path, body, said):
    """Not read as an expression ("unexpected 'x' ... did you mean 'move'?"), but as the statement it is."""
    errors = load_errors(written(tmp_path, f'"f(x)": "{body}"'))
    assert said in str(errors[0]) and "did you mean" not in str(errors[0])
    assert errors[0].location.line == 10


def test_a_param_named_like_a_statement_starts_an_expression(tmp_path):
    program = load_program(written(tmp_path, '"f(move)": "move + 1"'))
    assert program is not None
