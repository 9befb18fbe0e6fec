"""A size check is never left out because of a type the resolver inferred: a variable declared a number may be given
a text by a value whose type shows only when the game runs (`first(names)`), and `*` or `%` of it must still be
checked (a red team made a text of 2,000,000,000 characters this way, and hung `naipes check`)."""
import pytest

from naipes import RandomAgent, load_program, play_game
from naipes.errors import GameError

GAME = """\
game: t
players: 2
cards:
  attributes: {rank: [1, 2, 3]}
  start: stock
zones:
  stock: {visibility: public}
state: {out: 0}
player_state: {score: 0}
rules:
  - name: the_end
    when: "True"
    then: end game
setup: |
SETUP
"""

TEXT = 'first(["0123456789"])'
CASES = {
    "a state variable declared a number": f"out = {TEXT}\nout = len(out * 200000000)",
    "a player variable declared a number": f"players[0].score = {TEXT}\nout = len(players[0].score * 200000000)",
    "a local made a number first": f"let x = 0\nx = {TEXT}\nout = len(x * 200000000)",
    "a local made again in a loop": f"let x = 0\nfor i in range(2):\n    if i > 0:\n        out = len(x * 200000000)\n"
                                    f"    let x = {TEXT}",
    "an augmented product": f"out = {TEXT}\nout *= 200000000",
}


def setup(text):
    return GAME.replace("SETUP", "\n".join("  " + line for line in text.split("\n")))


@pytest.mark.parametrize("case", CASES)
def test_a_product_of_a_value_declared_a_number_is_still_checked(tmp_path, case):
    path = tmp_path / "g.yaml"
    path.write_text(setup(CASES[case]), encoding="utf-8")
    with pytest.raises(GameError, match="2,000,000,000 characters is too long"):
        play_game(load_program(path), [RandomAgent(1), RandomAgent(2)], 1)


def test_formatting_by_a_value_declared_a_number_is_still_checked(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(setup('out = first(["%0999999d"])\nout = len(out % 1)'), encoding="utf-8")
    with pytest.raises(GameError, match="'%' is for numbers"):
        play_game(load_program(path), [RandomAgent(1), RandomAgent(2)], 1)


def test_numbers_proven_by_what_computes_them_stay_plain_python(tmp_path):
    """What the check may be left out for: a product of a number written in the file and a length."""
    from naipes.language.codegen import proven_number
    from naipes.language.parser import parse_expression
    assert not proven_number(parse_expression("x"))
    assert proven_number(parse_expression("3"))
    assert proven_number(parse_expression("-x"))  # (a sign gives a number or fails)
