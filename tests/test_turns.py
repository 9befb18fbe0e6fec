"""Declared turn order (`phases: NAME: turns:`): who moves first on entering a phase, and who after each move."""
import pytest

from naipes import Game, load_program

from helpers import load_errors, write_rules

# Three players call numbers; the log keeps who moved. A player who calls 0 folds (skipped from then on),
# one who calls 2 gives the turn to the first player (a move may give the turn itself).
GAME = """
game: turns
players: 3
params:
  calls: {default: 7}
state:
  turn: {init: "None"}
  log: "[]"
  rounds: 0
player_state:
  folded: "False"
phases:
  calling:
    turns: {from: "players[1]", skip: "player.folded"}
  done:
moves:
  call:
    choose: "n in [0, 1, 2]"
    then: |
      log = log + [player.index]
      if n == 0:
          player.folded = True
      if n == 2:
          turn = players[0]
rules:
  - name: ask_for_a_call
    phase: calling
    when: "turn is not None and len(log) < calls"
    then: "ask turn to call"
  - name: stop
    phase: calling
    when: "turn is None or len(log) >= calls"
    then: "end game"
"""


def play(path, choices, params=None):
    game = Game(load_program(path, params or {}), 0)
    game.start()
    for n in choices:
        if game.over:
            break
        game.apply(next(o for o in game.options() if o.arg == n))
    return game


def movers(tmp_path, text, choices, params=None):
    return play(write_rules(tmp_path, text), choices, params).memory.vars["log"]


def test_the_turn_starts_with_from_and_goes_round_in_order(tmp_path):
    assert movers(tmp_path, GAME, [1] * 7) == [1, 2, 0, 1, 2, 0, 1]


def test_a_skipped_player_is_passed_over(tmp_path):
    # player 2 folds at his first turn: from then on the turn goes 0, 1, 0, 1
    assert movers(tmp_path, GAME, [1, 0, 1, 1, 1, 1, 1]) == [1, 2, 0, 1, 0, 1, 0]


def test_a_move_that_gives_the_turn_keeps_it_there(tmp_path):
    # player 1 calls 2: the turn is player 0's, not the next after player 1
    assert movers(tmp_path, GAME, [2, 1, 1, 1]) == [1, 0, 1, 2]


def test_once_around_ends_the_turns_when_they_come_back_to_from(tmp_path):
    text = GAME.replace('skip: "player.folded"}', 'skip: "player.folded", once: true}')
    game = play(write_rules(tmp_path, text), [1] * 7)
    assert game.memory.vars["log"] == [1, 2, 0] and game.memory.vars["turn"] is None and game.over


def test_until_stops_the_turn(tmp_path):
    text = GAME.replace('skip: "player.folded"}', 'until: "len(log) == 4"}')
    game = play(write_rules(tmp_path, text), [1] * 7)
    assert game.memory.vars["log"] == [1, 2, 0, 1] and game.memory.vars["turn"] is None


def test_order_gives_the_players_who_take_turns(tmp_path):
    text = GAME.replace('skip: "player.folded"}', 'order: "[players[2], players[1]]"}')
    assert movers(tmp_path, text, [1] * 5) == [1, 2, 1, 2, 1]


def test_the_turn_is_from_again_each_time_the_phase_is_entered(tmp_path):
    text = GAME.replace("""      if n == 2:
          turn = players[0]""", """      if n == 2:
          goto done""") + """
  - name: back_to_calling
    phase: done
    then: |
      rounds += 1
      goto calling
"""
    assert movers(tmp_path, text, [1, 2, 1, 1, 2, 1]) == [1, 2, 1, 2, 0, 1]  # the goto after 2, then 1 again


def test_a_move_not_listed_in_after_leaves_the_turn_where_it_is(tmp_path):
    # 'note' is a move that does not end a turn: the same player is asked again, then calls
    text = GAME.replace('skip: "player.folded"}', 'after: [call]}').replace("""moves:
""", """moves:
  note:
    then: "log = log + ['note']"
""").replace('then: "ask turn to call"', 'then: "ask turn to call, note"')
    game = play(write_rules(tmp_path, text), [])
    for choice in ["note", "call", "note", "call", "call"]:
        game.apply(next(o for o in game.options() if o.move == choice))
    assert game.memory.vars["log"] == ["note", 1, "note", 2, 0]


@pytest.mark.parametrize("text, message, line", [
    (GAME.replace('  turn: {init: "None"}\n', ""), "declare the state variable they set, 'turn'", 12),
    (GAME.replace('turns: {from: "players[1]", skip: "player.folded"}', 'turns: {skip: "player.folded"}'),
     "mapping with 'from: PLAYER'", 13),
    (GAME.replace('skip: "player.folded"}', 'skip: "player.foldd"}'), "foldd", 13),
    (GAME.replace('skip: "player.folded"}', 'once: 3}'), "'once' in the turns of phase 'calling' is true or false",
     13),
    (GAME.replace('skip: "player.folded"}', 'after: [cal]}'), "'cal' is not one", 13),
])
def test_bad_turns_are_located_errors(tmp_path, text, message, line):
    errors = load_errors(write_rules(tmp_path, text))
    assert any(message in e.message and e.location.line == line for e in errors), \
        [(e.message, e.location.line) for e in errors]
