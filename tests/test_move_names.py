"""A move may be named by a word Python keeps for itself (`pass`, the commonest move of card games), and a move
without an argument is told by its verb alone, whatever its label."""
import pytest

from naipes import RandomAgent, load_program, play_game

from helpers import load_errors

GAME = """\
game: t
players: {min: 2, max: 2, default: 2, ai: random}
cards:
  attributes: {rank: [1, 2, 3]}
  start: stock
zones:
  stock: {visibility: hidden}
state:
  done: "False"
phases:
  play:
moves:
  NAME:
    label: "'pass'"
    verb: passes
    then: "done = True"
rules:
  - name: ask_to_move
    when: "not done"
    then: "ask players[0] to NAME"
  - name: the_end
    when: "done"
    then: "end game"
"""


def game(tmp_path, name):
    path = tmp_path / "g.yaml"
    path.write_text(GAME.replace("NAME", name), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["pass", "if", "match", "pass_bid"])
def test_a_move_may_be_named_by_a_python_word_and_is_told_by_its_verb(tmp_path, name):
    program = load_program(game(tmp_path, name))
    heard = []
    result = play_game(program, [RandomAgent(1), RandomAgent(2)], 1, listeners=[heard.append])
    assert result.decisions == 1
    decision = next(record for record in heard if record["type"] == "decision")
    assert decision["move"] == name
    assert program.told(name, "P1", decision["public"]) == "P1 passes"  # (not "P1 passes pass")


def test_a_private_name_still_cannot_name_a_move(tmp_path):
    errors = load_errors(game(tmp_path, "_"))
    assert "cannot start with '_'" in str(errors[0])


COMPOUND = """\
game: t
players: {min: 2, max: 2, default: 2, ai: random}
cards:
  attributes: {colour: [red, black]}
  start: stock
zones:
  stock: {visibility: hidden}
state:
  done: "False"
phases:
  play:
moves:
  call:
    choose: "colour in ['red', 'black']"
    label: "f'call {colour}'"
    public: "''"
    parts:
      - choose: "partner in [p for p in players if p != player]"
        label: "f'call {colour} with {partner.name}'"
        verb: {call: calls}
    then: "done = True"
rules:
  - name: ask_to_call
    when: "not done"
    then: "ask players[0] to call"
  - name: the_end
    when: "done"
    then: "end game"
"""


def test_a_part_of_a_compound_move_is_told_by_its_own_verb(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(COMPOUND, encoding="utf-8")
    program = load_program(path)
    heard = []
    play_game(program, [RandomAgent(1), RandomAgent(2)], 1, listeners=[heard.append])
    told = [program.told(r["move"], r["player"], r["public"]) for r in heard if r["type"] == "decision"]
    assert told == ["", "P1 calls red with P2"] or told == ["", "P1 calls black with P2"]


def test_a_compound_move_begun_names_each_value_by_its_part(tmp_path):
    from naipes.agents.human import begun_text
    path = tmp_path / "g.yaml"
    path.write_text(COMPOUND, encoding="utf-8")
    program = load_program(path)
    assert begun_text(program, {"move": "call", "chosen": ["red"]}) == \
        "call: chosen so far colour red; now the next part."
