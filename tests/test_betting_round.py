"""A round of betting (`bets:` NAME with `round: PHASE`), pinned by poker's rules (Robert's Rules of Poker):
every player still in answers each bet in turn; a fold leaves the others in; the round ends when every player
still in with chips has acted since the last full bet or raise and all have put in the same (or are all-in);
the blinds are the first bets (the big blind has his option); no-limit raises are by at least the last full bet
or raise; an all-in short of a full raise does not reopen the betting to those who have acted; fixed-limit bets
are of one size, a bet and raises up to the cap. Expected values come from those rules, not from the engine."""
from __future__ import annotations

from naipes import Game, load_program
from naipes.language import nodes
from naipes.language.bets import expand_bets
from naipes.language.builder import compile_expression
from naipes.language.code import Code
from naipes.language.loader import load_tree

from helpers import V, choose, labels, load_errors, write_rules

# Two rounds of betting among three players: blinds of 1 and 2 from P1 and P2 open the first; P3 acts first in
# it, P1 in the second. A fold leaving one ends the game, as does the end of the second round.
ROUND = """
game: rounds
players: {min: 2, max: 4, default: 3}
params:
  limit: {type: bool, default: false}
  short: {type: int, default: 100}
state:
  rounds: 0
  turn: "None"
player_state:
  chips: "short if player.index == 2 else 100"
phases:
  deal:
    enter:
      - begin: "goto betting"
  betting:
    turns: {from: "pot_next_to_act(players[1] if rounds == 0 else players[-1])", skip: "not pot_to_act(player)"}
bets:
  pot:
    round: betting
    reset: deal
    minimum: 2
    fixed: "2 if limit else 0"
    cap: "3 if limit else 0"
    sizes:
      min: "0"
      pot: "pot_size() + pot_high - player.pot_bet"
    blinds:
      post_blinds:
        when: "rounds == 0"
        bets: "[(players[0], 1), (players[1], 2)]"
rules:
  - name: one_left
    phase: betting
    when: "len(pot_in()) == 1"
    then: "end game"
  - name: next_round
    phase: betting
    when: "len(pot_in()) > 1 and pot_over() and rounds == 0"
    then: |
      rounds += 1
      goto betting
  - name: done
    phase: betting
    when: "len(pot_in()) > 1 and pot_over() and rounds == 1"
    then: "end game"
  - name: ask
    phase: betting
    when: "len(pot_in()) > 1 and turn is not None and pot_to_act(turn)"
    then: "ask turn to fold, call, bet"
result: "player.chips"
"""


def started(tmp_path, text=ROUND, **params):
    game = Game(load_program(write_rules(tmp_path, text), tuple((k, str(v)) for k, v in params.items())), 0,
                players=3)
    game.start()
    return game


def mover(game):
    return game.mover.name


def bets(game):
    return [p.pot_bet for p in V(game)["players"]]


def value(game, expression):
    return compile_expression(game.program, expression)(game.memory)


def test_the_blinds_are_the_first_bets_and_the_next_player_acts_first(tmp_path):
    game = started(tmp_path)
    assert bets(game) == [1, 2, 0] and [p.chips for p in V(game)["players"]] == [99, 98, 100]
    assert (V(game)["pot_high"], V(game)["pot_raises"], V(game)["pot_raise"]) == (2, 1, 2)
    # the minimum raise is by the big blind (to 4); the pot once called is 5 (1 + 2 + 2): a raise to 7
    assert mover(game) == "P3" and labels(game) == ["fold", "call 2", "raise to 4", "raise to 7",
                                                    "raise to 100 (all-in)"]


def test_the_round_ends_only_when_the_bets_are_level_and_all_have_acted(tmp_path):
    game = started(tmp_path)
    choose(game, "call 2")
    choose(game, "call 1")
    assert bets(game) == [2, 2, 2] and not value(game, "pot_over()")
    assert mover(game) == "P2" and labels(game)[:1] == ["check"]  # the big blind's option: he has not acted
    choose(game, "check")
    assert V(game)["rounds"] == 1 and bets(game) == [0, 0, 0] and V(game)["pot_high"] == 0
    assert [p.pot_put for p in V(game)["players"]] == [2, 2, 2] and value(game, "pot_size()") == 6
    assert mover(game) == "P1" and labels(game) == ["check", "bet to 2", "bet to 6", "bet to 98 (all-in)"]  # the pot: 6


def test_a_fold_leaves_the_others_in(tmp_path):
    game = started(tmp_path)
    choose(game, "fold")
    assert V(game)["players"][2].pot_folded and [p.name for p in value(game, "pot_in()")] == ["P1", "P2"]
    choose(game, "call 1")
    assert mover(game) == "P2" and not game.over
    choose(game, "check")
    assert V(game)["rounds"] == 1 and mover(game) == "P1"  # P3 is passed over
    choose(game, "bet to 2")
    choose(game, "fold")
    assert game.over and [p.name for p in value(game, "pot_in()")] == ["P1"] and value(game, "pot_size()") == 6


def test_a_full_raise_reopens_the_betting_to_those_who_have_acted(tmp_path):
    game = started(tmp_path)
    choose(game, "call 2")
    choose(game, "raise to 4")
    assert mover(game) == "P2"
    choose(game, "call 2")
    assert mover(game) == "P3" and "raise to 6" in labels(game)  # P3 acted before the raise: asked again
    choose(game, "call 2")
    assert V(game)["rounds"] == 1


def test_no_limit_raises_are_by_at_least_the_last_full_raise(tmp_path):
    game = started(tmp_path)
    choose(game, "raise to 7")          # P3 raises by 5
    # P1 calls 6 more, or raises by 5 at least (to 12); the pot once he has called is 1 + 2 + 7 + 6 = 16: to 23
    assert mover(game) == "P1" and labels(game) == ["fold", "call 6", "raise to 12", "raise to 23",
                                                    "raise to 100 (all-in)"]
    assert V(game)["pot_raise"] == 5


def test_an_all_in_short_of_a_full_raise_does_not_reopen_the_betting(tmp_path):
    game = started(tmp_path, short=5)   # P3 has 5 chips
    choose(game, "call 2")
    choose(game, "raise to 4")          # P1: a full raise (by 2)
    choose(game, "call 2")              # P2
    assert mover(game) == "P3" and labels(game) == ["fold", "call 2", "raise to 5 (all-in)"]
    choose(game, "raise to 5 (all-in)")  # by 1, short of a full raise
    assert V(game)["pot_high"] == 5 and V(game)["pot_raise"] == 2
    assert mover(game) == "P1" and labels(game) == ["fold", "call 1"]  # P1 acted since the last full raise
    choose(game, "call 1")
    assert mover(game) == "P2" and labels(game) == ["fold", "call 1"]
    choose(game, "call 1")
    assert V(game)["rounds"] == 1 and bets(game) == [0, 0, 0]
    assert not value(game, "pot_to_act(players[2])") and value(game, "pot_all_in(players[2])")  # he no longer acts


def test_a_short_all_in_leaves_those_who_have_not_acted_free_to_raise(tmp_path):
    game = started(tmp_path, short=3)   # P3 has 3 chips: all-in for 3 is a raise by 1
    assert labels(game) == ["fold", "call 2", "raise to 3 (all-in)"]
    choose(game, "raise to 3 (all-in)")
    assert mover(game) == "P1" and labels(game) == ["fold", "call 2", "raise to 5", "raise to 11",
                                                    "raise to 100 (all-in)"]  # by the last full raise: 2


def test_fixed_limit_one_size_and_a_cap_the_big_blind_counting_as_the_first_bet(tmp_path):
    game = started(tmp_path, limit="true")
    assert labels(game) == ["fold", "call 2", "raise to 4"]  # one size; all-in only when short of it
    choose(game, "raise to 4")
    assert V(game)["pot_raises"] == 2
    choose(game, "raise to 6")
    assert V(game)["pot_raises"] == 3 and mover(game) == "P2"
    assert labels(game) == ["fold", "call 4"]  # capped: the big blind and two raises make three
    choose(game, "call 4")
    assert mover(game) == "P3" and labels(game) == ["fold", "call 2"]


def test_a_short_blind_is_all_in_and_the_others_still_call_the_full_blind(tmp_path):
    text = ROUND.replace('chips: "short if player.index == 2 else 100"', 'chips: "1 if player.index == 1 else 100"')
    game = started(tmp_path, text)
    assert bets(game) == [1, 1, 0] and V(game)["players"][1].chips == 0 and V(game)["pot_high"] == 2
    assert labels(game)[:2] == ["fold", "call 2"]


def test_what_each_put_in_makes_the_side_pots(tmp_path):
    game = started(tmp_path, short=5)
    choose(game, "raise to 5 (all-in)")  # P3 (by 3: a full raise)
    choose(game, "raise to 17")          # P1: the pot once called, 8 + 4, over the 5
    choose(game, "call 15")              # P2
    pots = value(game, "side_pots([(p, p.pot_put) for p in players], pot_in())")
    assert [(amount, [p.name for p in eligible]) for amount, eligible in pots] == [(15, ["P1", "P2", "P3"]),
                                                                                   (24, ["P1", "P2"])]


def round_errors(tmp_path, old, new):
    text = ROUND.replace(old, new)
    assert text != ROUND
    return [(e.location.line, e.message, e.hint) for e in load_errors(write_rules(tmp_path, text))]


def line_of(needle):
    return next(i for i, line in enumerate(ROUND.lstrip("\n").splitlines(), 1) if needle in line)


def test_a_misspelt_key_of_a_round_is_located_with_a_suggestion(tmp_path):
    [(line, message, hint)] = round_errors(tmp_path, "    minimum: 2\n", "    minimun: 2\n")
    assert line == line_of("minimum: 2") and "unknown key 'minimun'" in message and "minimum" in hint


def test_a_key_of_a_bet_answered_once_is_not_one_of_a_round(tmp_path):
    [(line, message, _)] = round_errors(tmp_path, "    minimum: 2\n", "    minimum: 2\n    calls: [bet]\n")
    assert line == line_of("minimum: 2") + 1 and "'calls' is a key of a bet answered once" in message


def test_a_round_names_a_declared_phase_and_a_player_variable(tmp_path):
    # (one error each: the uses of the names the refused round would have made are not mistakes of their own)
    [(line, message, hint)] = round_errors(tmp_path, "round: betting", "round: beting")
    assert line == line_of("round: betting") and "'beting' is not a phase" in message and "betting" in hint
    [(line, message, hint)] = round_errors(tmp_path, "    reset: deal\n", "    reset: deal\n    chips: chip\n")
    assert line == line_of("reset: deal") + 1 and "'chip'" in message and "chips" in hint
    [(line, message, hint)] = round_errors(tmp_path, "    reset: deal\n", "    reset: dael\n")
    assert line == line_of("reset: deal") and "'dael' is not a phase" in message and hint == "did you mean 'deal'?"


def test_a_mistake_in_a_size_is_located_where_it_is_written(tmp_path):
    [(line, message, _)] = round_errors(tmp_path, 'pot: "pot_size() + pot_high', 'pot: "pot_sise() + pot_high')
    assert line == line_of("pot: \"pot_size()") and "pot_sise" in message


def test_a_mistake_in_the_blinds_step_is_located_where_it_is_written(tmp_path):
    [(line, message, _)] = round_errors(tmp_path, 'when: "rounds == 0"', 'when: "rouns == 0"')
    assert line == line_of('when: "rounds == 0"') and "rouns" in message
    blinds = '        bets: "[(players[0], 1), (players[1], 2)]"\n'
    text = ROUND.replace(blinds, blinds + '        then: ["rounds = 0", "annouce 1"]\n')
    [error] = load_errors(write_rules(tmp_path, text))  # (a list of actions: each where it is written)
    column = len('        then: ["rounds = 0", "annouce ') + 1
    assert (error.location.line, error.location.col) == (line_of("bets: \"[(players[0]") + 1, column)
    assert "unexpected '1' in step 'post_blinds'" in error.message and error.hint == "did you mean 'announce'?"


def test_a_size_is_read_by_itself_and_cannot_close_what_the_round_writes_around_it(tmp_path):
    # (spliced as text into `max(pot_raise, (MIN) if k == 'min' else (POT))`, this one closed the max and added 1
    # to every raise; read by itself, it is a located error where it is written)
    text = ROUND.replace('pot: "pot_size() + pot_high - player.pot_bet"', 'pot: "0)) + ((1"')
    [error] = load_errors(write_rules(tmp_path, text))
    assert (error.location.line, error.location.col) == (line_of('pot: "pot_size()'), len('      pot: "0)') + 1)
    assert "unexpected ')'" in error.message


def test_what_a_round_makes_is_code_with_the_files_texts_in_it_where_they_are_written(tmp_path):
    text = ROUND.replace("    minimum: 2\n", "    minimum: 2\n    folded: \"rounds = 5\"\n")
    found = []
    tree, _ = expand_bets(load_tree(write_rules(tmp_path, text)), lambda *problem: found.append(problem))
    fold, [step] = tree["moves"]["fold"], tree["phases"]["betting"]["enter"]
    made = [fold[key] for key in ("choose", "when", "label", "then")] + list(step["post_blinds"].values())
    assert not found and all(isinstance(value, Code) for value in made)
    *_, folded = fold["then"].statements("the fold")  # (the file's folded: after what the round writes)
    assert isinstance(folded, nodes.Assign) and folded.target.name == "rounds"
    assert (folded.loc.line, folded.loc.col) == (line_of("minimum: 2") + 1, len('    folded: "') + 1)


def test_antes_are_dead_chips_in_the_pot_posted_before_the_blinds(tmp_path):
    text = ROUND.replace('        when: "rounds == 0"\n', '        when: "rounds == 0"\n        antes: "1"\n')
    game = started(tmp_path, text)
    players = V(game)["players"]
    assert [p.pot_put for p in players] == [2, 3, 1] and [p.chips for p in players] == [98, 97, 99]
    assert bets(game) == [1, 2, 0] and V(game)["pot_high"] == 2  # the antes are no bet of the round
    assert labels(game)[:2] == ["fold", "call 2"] and value(game, "pot_size()") == 6
    assert not value(game, "pot_all_in(players[0])")


def test_a_player_the_antes_leave_all_in_passes_the_first_turn_on(tmp_path):
    # P3, first to act, has one chip: the ante takes it; the phase's turns gave him the turn before the antes
    # were posted, and pass it on once they are (skip: he need not act) to the first who must act: P1, who owes 1
    text = ROUND.replace('        when: "rounds == 0"\n', '        when: "rounds == 0"\n        antes: "1"\n')
    game = started(tmp_path, text, short=1)
    assert value(game, "pot_all_in(players[2])") and mover(game) == "P1" and labels(game)[:2] == ["fold", "call 1"]


def test_a_key_of_a_round_is_not_one_of_a_bet_answered_once(tmp_path):
    errors = round_errors(tmp_path, "    round: betting\n", "")  # (without round: a bet answered once, no calls)
    assert (line_of("minimum: 2") - 1, "'minimum' is a key of a round of betting (give 'round: PHASE'), not of a "
            "bet answered once", None) in errors
    assert any("needs its calls" in message for _, message, _ in errors)


def test_a_round_names_its_moves(tmp_path):
    text = ROUND.replace("    minimum: 2\n", "    minimum: 2\n    move: {bet: up, fold: out}\n").replace(
        "ask turn to fold, call, bet", "ask turn to out, call, up")
    game = started(tmp_path, text)
    assert labels(game) == ["fold", "call 2", "raise to 4", "raise to 7", "raise to 100 (all-in)"]
    assert [option.move for option in game.options()][::2] == ["out", "up", "up"]
    [(line, message, _)] = round_errors(tmp_path, "    minimum: 2\n", "    minimum: 2\n    move: {raise: up}\n")
    assert line == line_of("minimum: 2") + 1 and "'raise' is none of them" in message
