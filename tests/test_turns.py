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


def test_end_turn_passes_the_turn_after_a_move_that_does_not_end_one(tmp_path):
    # 'note' leaves the turn with its player (not in `after`), unless its effect says `end turn`: the second note
    # of the game does, and the turn passes from P2 to P3, who calls
    text = GAME.replace('skip: "player.folded"}', 'after: [call]}').replace("""moves:
""", """moves:
  note:
    then: |
      log = log + ['note']
      if len([x for x in log if x == 'note']) == 2:
          end turn
""").replace('then: "ask turn to call"', 'then: "ask turn to call, note"')
    game = play(write_rules(tmp_path, text), [])
    for choice in ["note", "note", "call"]:
        game.apply(next(o for o in game.options() if o.move == choice))
    assert game.memory.vars["log"] == ["note", "note", 2]


@pytest.mark.parametrize("where, text", [
    ("a rule's action", GAME.replace('then: "ask turn to call"', 'then: |\n      end turn\n      ask turn to call')),
    ("a function", GAME.replace("moves:\n", "functions:\n  \"f(x)\": |\n    let y = x\n    end turn\n    return y\n"
                                           "moves:\n")),
    ("a game without turns", GAME.replace('    turns: {from: "players[1]", skip: "player.folded"}\n', "").replace(
        "      if n == 2:\n", "      end turn\n      if n == 2:\n")),
])
def test_end_turn_outside_a_moves_effect_in_a_game_of_turns_is_a_located_error(tmp_path, where, text):
    path = write_rules(tmp_path, text)
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines, 1) if line.strip() == "end turn")
    errors = load_errors(path)
    assert any("'end turn' belongs in a move's effect, in a game whose phases declare turns" in e.message
               and e.location.line == at for e in errors), [str(e) for e in errors]


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


# Each turn has two stages, as a rummy's: the turn order asks the player whose turn it is to draw (no rule asks
# anything), the draw asks him to let a card go, and letting go ends the turn. Letting go 'back' gives the turn to
# the first player instead (the move asks him itself). After `moves` moves the turn stops.
ASKED = """
game: asked
players: 3
params:
  moves: {default: 6}
  leave: {type: bool, default: false}
state:
  turn: {init: "None"}
  log: "[]"
  entries: 0
phases:
  play:
    stages: [draw, letgo]
    turns: {from: "players[2]", after: [letgo], until: "len(log) >= moves", ask: [draw]}
    enter:
      - count_the_entry: "entries += 1"
      - leave_at_once: {when: "leave", then: "goto done"}
  done:
moves:
  draw:
    stage: draw
    then: |
      log = log + [player.index]
      stage = 'letgo'
      ask player to letgo
  letgo:
    stage: letgo
    choose: "k in ['on', 'back']"
    then: |
      log = log + [k]
      stage = 'draw'
      if k == 'back':
          turn = players[0]
          ask turn to draw
rules:
  - name: the_turns_stopped
    phase: play
    when: "turn is None"
    then: "end game"
  - name: left
    phase: done
    then: "end game"
"""


def asked(game, choices):
    """Who is asked what, decision by decision, choosing `choices` in turn for letgo."""
    seen, choices = [], iter(choices)
    while not game.over:
        decision = game.decision()
        seen.append((decision.player, decision.moves))
        options = game.options()
        wanted = None if options[0].move == "draw" else next(choices)
        game.apply(next(o for o in options if o.arg == wanted))
    return seen


def test_ask_puts_the_turn_to_the_player_whose_turn_it_is_on_entering_and_after_each_turn(tmp_path):
    game = play(write_rules(tmp_path, ASKED), [])
    assert asked(game, ["on"] * 3) == [(2, ("draw",)), (2, ("letgo",)), (0, ("draw",)), (0, ("letgo",)),
                                       (1, ("draw",)), (1, ("letgo",))]
    # the turn stopped after the sixth move (until): nobody was asked, and the rule watching the turn ended it
    assert game.memory.vars["log"] == [2, "on", 0, "on", 1, "on"] and game.memory.vars["turn"] is None
    assert game.memory.vars["entries"] == 1


def test_ask_leaves_a_move_that_gives_the_turn_to_ask_for_itself(tmp_path):
    # P3 lets go 'back': the turn is P1's and the move asks him (the turn order asks nobody more)
    game = play(write_rules(tmp_path, ASKED), [], {"moves": "8"})
    assert asked(game, ["back", "on", "on", "on"])[:6] == [(2, ("draw",)), (2, ("letgo",)), (0, ("draw",)),
                                                          (0, ("letgo",)), (1, ("draw",)), (1, ("letgo",))]
    assert game.memory.vars["log"] == [2, "back", 0, "on", 1, "on", 2, "on"]


def test_ask_comes_after_the_enter_steps_and_not_once_they_left_the_phase(tmp_path):
    game = play(write_rules(tmp_path, ASKED), [], {"leave": "true"})
    assert game.over and game.decisions == 0 and game.memory.vars["phase"] == "done"


def test_a_move_ask_does_not_know_is_a_located_error(tmp_path):
    errors = load_errors(write_rules(tmp_path, ASKED.replace("ask: [draw]", "ask: [drow]")))
    assert any("'drow' is not one" in e.message and "draw" in str(e) and e.location.line == 13 for e in errors), \
        [(e.message, e.location.line) for e in errors]


def test_a_first_player_whom_the_enter_steps_leave_passed_over_passes_the_turn_on(tmp_path):
    # the enter step folds player 1 (a blind that left him all-in, say) after 'from' gave him the turn
    turns = '    turns: {from: "players[1]", skip: "player.folded"}'
    text = GAME.replace(turns, turns + '''
    enter:
      - fold_the_first: "players[1].folded = True"''')
    assert movers(tmp_path, text, [1] * 5) == [2, 0, 2, 0, 2]


def test_a_turn_that_comes_back_to_the_player_who_moved_asks_him_again(tmp_path):
    # the rule that asks reads only the turn: once players 2 and 0 have folded the turn comes back to player 1
    # unchanged, and he is asked again (no refresh written)
    text = GAME.replace('when: "turn is not None and len(log) < calls"', 'when: "turn is not None"').replace(
        '''      if n == 2:
          turn = players[0]''', '''      if len(log) >= calls:
          end game''')
    game = play(write_rules(tmp_path, text), [1, 0, 0, 1, 1, 1, 1])
    assert game.memory.vars["log"] == [1, 2, 0, 1, 1, 1, 1] and game.over


def test_an_order_that_is_no_list_of_players_is_a_clear_error(tmp_path):
    text = GAME.replace('skip: "player.folded"}', 'order: "3"}')
    with pytest.raises(Exception, match="'order' of the turns of phase 'calling' gives 3, where a list of players"):
        play(write_rules(tmp_path, text), [1, 1])
