"""Declared values: a text written to or compared with a variable or attribute that lists its values must be one."""
import pytest

from naipes import GameError, RuleErrors, load_program
from naipes.runtime.game import Game

GAME = """
game: kinds
players: 2
cards:
  attributes: {kind: [number, wizard], rank: [1, 2]}
  start: deck
zones:
  deck: {}
state:
  mood: {init: "'calm'", values: [calm, angry]}
player_state:
  role: {init: "'dealer'", values: [dealer, player]}
rules:
  - name: finish
    when: "mood == 'calm' and all(c.kind != 'wizard' or c.rank > 0 for c in deck)"
    then: |
      mood = 'angry'
      for p in players:
          p.role = 'player'
      end game
"""


def test_a_file_that_keeps_to_its_declared_values_runs(rule_file):
    game = Game(load_program(rule_file(GAME)), 0)
    game.start()
    assert game.over and game.memory.vars["mood"] == "angry"


@pytest.mark.parametrize("wrong, right, message", [
    ("mood == 'calm'", "mood == 'clam'", "'clam' is not a value of mood"),
    ("mood = 'angry'", "mood = 'angyr'", "'angyr' is not a value of mood"),
    ("c.kind != 'wizard'", "c.kind != 'wizzard'", "'wizzard' is not a value of kind"),
    ("p.role = 'player'", "p.role = 'palyer'", "'palyer' is not a value of role"),
])
def test_a_misspelt_value_is_a_located_compile_error_with_a_suggestion(rule_file, wrong, right, message):
    text = GAME.replace(wrong, right)
    with pytest.raises(RuleErrors) as caught:
        load_program(rule_file(text))
    error = caught.value.errors[0]
    assert error.message == message and error.hint.startswith("did you mean")
    written = rule_file(text).read_text()
    assert error.location.line == written.count("\n", 0, written.index(right)) + 1


def test_values_must_be_a_list_of_texts(rule_file):
    with pytest.raises(RuleErrors) as caught:
        load_program(rule_file(GAME.replace("values: [calm, angry]", "values: calm")))
    assert caught.value.errors[0].message == "state 'mood': 'values' lists the texts it may hold"


def test_a_generated_card_outside_its_declared_values_is_a_located_error(rule_file):
    text = GAME.replace("  start: deck\n", "  generate: \"[{'kind': k, 'rank': 1} for k in ['number', 'joker']]\"\n"
                                           "  start: deck\n").replace("rank: [1, 2]", "rank: int")
    with pytest.raises(GameError) as caught:
        Game(load_program(rule_file(text)), 0)
    assert "attribute 'kind' is 'joker', not one of its declared values number, wizard" in caught.value.message
    assert caught.value.location is not None
