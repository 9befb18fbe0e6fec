"""Teams (`teams:`): partnerships by seat parity or by lists of seats, the variables a team shares, and the
built-ins team, members, partner, partners and opponents."""
import pytest

from naipes import Game, load_program

from helpers import load_errors, write_rules

GAME = """
game: teams
players: {min: 2, max: 6, default: 4}
teams: parity
state:
  turn: "players[0]"
player_state:
  points: {init: 0, team: true}
  own: 0
moves:
  score:
    then: |
      player.points += 1 + player.index
      player.own += 1
      turn = next_player(player)
rules:
  - name: ask
    when: "sum(p.own for p in players) < len(players)"
    then: "ask turn to score"
  - name: stop
    when: "sum(p.own for p in players) >= len(players)"
    then: "end game"
result: "player.points"
"""


def started(tmp_path, text=GAME, players=4):
    game = Game(load_program(write_rules(tmp_path, text)), 0, players=players)
    game.start()
    return game


def test_parity_pairs_the_seats_and_the_builtins_name_them(tmp_path):
    game = started(tmp_path)
    assert list(game.memory.vars["__teams"]) == [0, 1, 0, 1]
    text = GAME.replace('  turn: "players[0]"', '''  turn: "players[0]"
  seen: "[]"''').replace('''  - name: ask
''', '''  - name: look
    when: "len(seen) == 0"
    priority: 5
    then: |
      seen = [team(players[1]), [p.index for p in members(0)], partner(players[0]).index,
              [p.index for p in partners(players[2])], [p.index for p in opponents(players[3])]]
  - name: ask
''')
    assert started(tmp_path, text).memory.vars["seen"] == [1, [0, 2], 2, [0], [0, 2]]


def test_a_team_variable_written_for_one_member_is_written_for_each(tmp_path):
    game = started(tmp_path)
    while not game.over:
        game.apply(game.options()[0])
    # seats 0 and 2 scored 1 and 3, seats 1 and 3 scored 2 and 4: each team's sum, shared
    assert [p.points for p in game.memory.players] == [4, 6, 4, 6]
    assert [p.own for p in game.memory.players] == [1, 1, 1, 1]
    assert game.payoffs() == [4, 6, 4, 6]


def test_parity_at_an_odd_table_leaves_everyone_alone(tmp_path):
    assert list(started(tmp_path, players=3).memory.vars["__teams"]) == [0, 1, 2]
    assert list(started(tmp_path, players=6).memory.vars["__teams"]) == [0, 1, 0, 1, 0, 1]


def test_fixed_teams_and_a_seat_left_alone(tmp_path):
    text = GAME.replace("teams: parity", "teams: [[0, 1], [2, 4]]")
    game = started(tmp_path, text, players=5)
    assert list(game.memory.vars["__teams"]) == [0, 0, 1, 5, 1]  # seat 3 is in no team: a team of its own
    while not game.over:
        game.apply(game.options()[0])
    assert [p.points for p in game.memory.players] == [3, 3, 8, 4, 8]


def test_without_teams_everyone_plays_alone(tmp_path):
    text = GAME.replace("teams: parity\n", "").replace("points: {init: 0, team: true}", "points: 0").replace(
        '  turn: "players[0]"', '''  turn: "players[0]"
  seen: "[]"''').replace('''  - name: ask
''', '''  - name: look
    when: "len(seen) == 0"
    priority: 5
    then: "seen = [partner(players[0]), len(opponents(players[0])), team(players[2])]"
  - name: ask
''')
    assert started(tmp_path, text, players=3).memory.vars["seen"] == [None, 2, 2]


HANDS = """
game: hands
players: 4
teams: parity
state:
  turn: "players[0]"
  made: 0
  hands: 0
player_state:
  points: {init: 0, team: true}
  hand: {init: 0, team: true, reset: play}
phases: [play]
moves:
  score:
    then: |
      player.points += 1 + player.index
      player.hand += 1 + player.index
      made += 1
      turn = next_player(player)
rules:
  - name: ask
    when: "made < 4 * (hands + 1)"
    then: "ask turn to score"
  - name: next_hand
    when: "made == 4 * (hands + 1)"
    then: |
      hands += 1
      if hands == 2:
          end game
      goto play
"""


def test_a_team_variable_with_reset_starts_again_for_every_member_of_every_team(tmp_path):
    # each player scores once a hand: `hand` is a team's points this hand, `points` the game's
    game = started(tmp_path, HANDS)
    for _ in range(4):
        game.apply(game.options()[0])
    assert game.memory.vars["hands"] == 1 and [p.points for p in game.memory.players] == [4, 6, 4, 6]
    assert [p.hand for p in game.memory.players] == [0, 0, 0, 0]  # (a new hand)
    game.apply(game.options()[0])  # seat 0 scores 1, for his partner too
    assert [p.hand for p in game.memory.players] == [1, 0, 1, 0]


def test_undo_takes_back_a_team_variable_for_every_member(tmp_path):
    game = started(tmp_path)
    point = game.make(game.options()[0])
    assert [p.points for p in game.memory.players] == [1, 0, 1, 0]
    game.undo(point)
    assert [p.points for p in game.memory.players] == [0, 0, 0, 0]


@pytest.mark.parametrize("change, message, line", [
    (("teams: parity\n", ""), "declare the teams", 6),
    (("teams: parity", "teams: [[0, 2], [2, 3]]"), "in one team only: not 2", 3),
    (("teams: parity", "teams: [[0, 6]]"), "an index from 0 to 5", 3),
    (("teams: parity", "teams: pairs"), "teams", 3),
    (("own: 0", "own: {init: 0, team: 3}"), "'team' is true or false", 8),
    (('turn: "players[0]"', 'turn: {init: "players[0]", team: true}'), "only a per-player variable", 5),
])
def test_bad_teams_are_located_errors(tmp_path, change, message, line):
    errors = load_errors(write_rules(tmp_path, GAME.replace(*change)))
    assert any(message in e.message and e.location.line == line for e in errors), \
        [(e.message, e.location.line) for e in errors]
