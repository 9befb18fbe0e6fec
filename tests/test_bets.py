"""Bets (`bets:`): a call waits for an answer (accept, refuse, or a raise that accepts it), who must answer, who
may raise after an accept, what a refusal pays; the side_pots built-in; a bet's mistakes, located."""
from pathlib import Path

import pytest

from naipes import Game, load_program
from naipes.language import nodes
from naipes.language.bets import expand_bets
from naipes.language.builder import compile_expression
from naipes.language.code import Code
from naipes.language.loader import load_tree
from naipes.library.builtins import side_pots
from naipes.library.limits import Budget

from helpers import V, choose, labels, load_errors, write_rules

ROOT = Path(__file__).resolve().parent.parent
ENVITE = ROOT / "examples" / "envite.yaml"

# A ladder bet in a game of turns: each player in turn passes or calls; three passes end it.
LADDER = """
game: ladder
players: {min: 2, max: 4, default: 2}
teams: parity
state:
  turn: "players[0]"
  passes: 0
phases: [play]
bets:
  stake:
    calls: [one, two, three]
    open: "player == turn"
    base: 1
    refused: "passes = 99"
moves:
  wait:
    then: |
      passes += 1
      turn = next_player(player)
rules:
  - name: ask_the_answer
    when: "stake_asked is not None"
    then: "ask stake_asked to answer, stake"
  - name: ask_the_turn
    when: "stake_asked is None and passes < 3"
    then: "ask turn to wait, stake"
  - name: stop
    when: "stake_asked is None and passes >= 3"
    then: "end game"
"""


def started(path, seed=0, players=2):
    game = Game(load_program(path), seed, players=players)
    game.start()
    return game


def envite(seed=0):
    return started(ENVITE, seed)


def test_a_call_waits_for_the_next_player_who_accepts_refuses_or_raises():
    game = envite()
    assert game.mover.name == "P1" and labels(game) == ["check", "bet"]
    choose(game, "bet")
    assert (game.mover.name, labels(game)) == ("P2", ["call", "fold", "raise"])
    assert V(game)["stake_asked"].name == "P2" and V(game)["stake_by"].name == "P1"
    choose(game, "raise")  # a raise accepts the bet it answers
    assert V(game)["stake_calls"] == ["bet", "raise"] and V(game)["stake_accepted"] == 1
    assert (game.mover.name, labels(game)) == ("P1", ["call", "fold", "all-in"])
    choose(game, "all-in")
    assert labels(game) == ["call", "fold"]  # the top of the ladder: no raise left
    choose(game, "call")
    assert game.over
    cards = {p.name: p.hand[0].rank for p in V(game)["players"]}
    best = max(cards, key=cards.get)
    assert {p.name: p.chips for p in V(game)["players"]} == {n: 8 if n == best else -8 for n in cards}


@pytest.mark.parametrize("calls, paid, to", [
    (["bet", "fold"], 1, "P1"),                    # nothing accepted before: the base
    (["bet", "raise", "fold"], 2, "P2"),           # the bet was accepted by the raise
    (["bet", "raise", "all-in", "fold"], 4, "P1"),
])
def test_a_refusal_pays_what_was_accepted_before_to_the_last_caller(calls, paid, to):
    game = envite()
    for label in calls:
        choose(game, label)
    assert game.over
    assert {p.name: p.chips for p in V(game)["players"]} == {"P1": paid if to == "P1" else -paid,
                                                            "P2": paid if to == "P2" else -paid}


def test_two_checks_show_the_cards_for_the_base():
    game = envite(3)
    choose(game, "check")
    choose(game, "check")
    assert game.over and sorted(p.chips for p in V(game)["players"]) == [-1, 1]


def test_after_an_accept_only_the_accepters_side_may_raise(tmp_path):
    game = started(write_rules(tmp_path, LADDER))
    choose(game, "one")
    choose(game, "accept")
    assert V(game)["stake_raiser"] == 1 and game.mover.name == "P1"
    assert labels(game) == ["wait"]  # P1 called: the side that accepted raises next
    choose(game, "wait")
    assert (game.mover.name, labels(game)) == ("P2", ["wait", "two"])
    choose(game, "two")
    assert (game.mover.name, labels(game)) == ("P1", ["accept", "refuse", "three"])


def test_raiser_any_lets_either_side_raise_after_an_accept(tmp_path):
    game = started(write_rules(tmp_path, LADDER.replace("    base: 1\n", "    base: 1\n    raiser: any\n")))
    choose(game, "one")
    choose(game, "accept")
    assert V(game)["stake_raiser"] == -1 and labels(game) == ["wait", "two"]


def test_stake_follows_the_ladder_and_a_refusal_runs_its_actions(tmp_path):
    game = started(write_rules(tmp_path, LADDER))
    memory = game.memory
    choose(game, "one")
    choose(game, "three") if "three" in labels(game) else choose(game, "two")
    assert V(game)["stake_calls"] == ["one", "two"] and V(game)["stake_accepted"] == 1
    choose(game, "refuse")
    assert game.over and V(game)["passes"] == 99 and memory is game.memory


def test_answered_by_team_lets_either_opponent_answer_asked_any_of(tmp_path):
    text = LADDER.replace("    base: 1\n", "    base: 1\n    answered_by: team\n").replace(
        'then: "ask stake_asked to answer, stake"', 'then: "ask any of opponents(stake_by) to answer, stake"')
    game = started(write_rules(tmp_path, text), players=4)
    choose(game, "one")
    assert game.mover.name == "P2" and labels(game) == ["accept", "refuse", "two", "leave it to P4"]
    choose(game, "leave it to P4")
    assert game.mover.name == "P4"
    choose(game, "accept")
    assert V(game)["stake_accepted"] == 1 and V(game)["stake_raiser"] == 1


def test_bets_sharing_an_answer_are_answered_in_the_order_declared(tmp_path):
    text = LADDER.replace("  stake:\n", """  side:
    calls: [side]
    open: "player == turn and stake_asked is not None"
    accepted: "passes = 50"
  stake:
""").replace('then: "ask stake_asked to answer, stake"', 'then: "ask stake_asked to answer, stake, side"').replace(
        'when: "stake_asked is not None"', 'when: "stake_asked is not None and side_asked is None"').replace(
        '''  - name: ask_the_answer''', '''  - name: ask_the_side_answer
    when: "side_asked is not None"
    priority: 1
    then: "ask side_asked to answer"
  - name: ask_the_answer''').replace('when: "stake_asked is None and passes < 3"',
                                     'when: "stake_asked is None and side_asked is None and passes < 3"')
    game = started(write_rules(tmp_path, text))
    choose(game, "one")
    assert labels(game) == ["accept", "refuse", "two"]  # P2 is not the turn: no side bet
    text = text.replace('open: "player == turn and stake_asked is not None"', 'open: "stake_asked is not None"')
    game = started(write_rules(tmp_path, text))
    choose(game, "one")
    choose(game, "side")  # P2 makes the side call while answering the stake; P1 answers it first
    assert game.mover.name == "P1" and labels(game) == ["accept", "refuse"]
    choose(game, "accept")
    assert V(game)["passes"] == 50 and V(game)["side_asked"] is None and V(game)["stake_asked"].name == "P2"
    assert V(game)["stake_accepted"] == 0


def test_side_pots_split_by_what_each_put_in_among_those_still_in():
    # A all-in for 10, B all-in for 25, C folded after 30, D in for 50
    put = [("A", 10), ("B", 25), ("C", 30), ("D", 50)]
    assert side_pots(Budget(), put, ["A", "B", "D"]) == [(40, ["A", "B", "D"]), (45, ["B", "D"]), (30, ["D"])]
    # a folded player put in more than anyone still in: his chips go to the last pot
    assert side_pots(Budget(), [("A", 10), ("B", 40), ("C", 20)], ["A", "C"]) == [(30, ["A", "C"]), (40, ["C"])]
    # equal stacks: one pot
    assert side_pots(Budget(), [("A", 5), ("B", 5), ("C", 2)], ["A", "B"]) == [(12, ["A", "B"])]
    assert side_pots(Budget(), [("A", 5)], []) == []


def test_side_pots_from_a_rule_file(tmp_path):
    path = write_rules(tmp_path, """
        game: pots
        players: 4
        state:
          pots: "[]"
        player_state:
          put: "[10, 25, 30, 50][player.index]"
        rules:
          - name: split
            when: "len(pots) == 0"
            then: |
              let pots_made = side_pots([(p, p.put) for p in players], [p for p in players if p.index != 2])
              pots = [(n, [p.name for p in ps]) for n, ps in pots_made]
              end game
        """)
    game = started(path, players=4)
    assert V(game)["pots"] == [(40, ["P1", "P2", "P4"]), (45, ["P2", "P4"]), (30, ["P4"])]


def errors_of(tmp_path, old, new):
    text = LADDER.replace(old, new)
    assert text != LADDER
    return [(e.location.line, e.location.col, e.message, e.hint) for e in load_errors(write_rules(tmp_path, text))]


def line_of(text, needle):
    return next(i for i, line in enumerate(text.lstrip("\n").splitlines(), 1) if needle in line)


def test_a_misspelt_key_of_a_bet_is_located_with_a_suggestion(tmp_path):
    [(line, col, message, hint)] = errors_of(tmp_path, "    base: 1\n", "    bse: 1\n")
    assert (line, col) == (line_of(LADDER, "base: 1"), 5) and "unknown key 'bse'" in message and "base" in hint


def test_a_wrong_value_of_a_bet_is_located(tmp_path):
    [(line, _, message, hint)] = errors_of(tmp_path, "    base: 1\n", "    base: 1\n    raiser: acepter\n")
    assert line == line_of(LADDER, "base: 1") + 1 and "'raiser' is one of accepter, any" in message
    assert "accepter" in hint
    [(line, _, message, _)] = errors_of(tmp_path, "calls: [one, two, three]", "calls: [one, \"t'wo\", three]")
    assert line == line_of(LADDER, "calls:") and "must be words" in message
    [(line, _, message, _)] = errors_of(tmp_path, "calls: [one, two, three]", "calls: 3")
    assert line == line_of(LADDER, "calls:") and "calls" in message


@pytest.mark.parametrize("old, new, needle, words", [
    ("    base: 1\n", "    base: 1\n    answers: [take, drop, maybe]\n", "maybe", "'answers' is two words"),
    ("calls: [one, two, three]", "calls: [one, two, one]", "calls:", "given twice"),
    ("    base: 1\n", "    base: 1\n    worth: [1, 2]\n", "worth:", "'worth' is a number for each call"),
    ("    base: 1\n", "    base: 1\n    answer: 2nd\n", "answer: 2nd", "'2nd' is not a valid move name"),
])
def test_a_refused_bet_is_one_error_not_one_for_each_use_of_its_names(tmp_path, old, new, needle, words):
    # (the rules use stake_asked and the move stake, which the refused bet would have made)
    text = LADDER.replace(old, new)
    [(line, _, message, _)] = errors_of(tmp_path, old, new)
    assert line == line_of(text, needle) and words in message


def test_a_mistake_in_a_bets_expression_is_located_where_it_is_written(tmp_path):
    [(line, col, message, _)] = errors_of(tmp_path, 'open: "player == turn"', 'open: "player == trun"')
    assert (line, col) == (line_of(LADDER, "open:"), len('    open: "player == ') + 1) and "trun" in message


def test_a_bets_text_is_read_by_itself_and_cannot_close_what_the_bet_writes_around_it(tmp_path):
    # (spliced as text into the options' `[k for k in CALLS if ... and (FOLLOWS)]`, this one ended the list there
    # and added a call of its own; read by itself, it is a located error where it is written)
    text = LADDER.replace("    base: 1\n", "    base: 1\n    follows: \"True)] + [('four'\"\n")
    [error] = load_errors(write_rules(tmp_path, text))
    assert (error.location.line, error.location.col) == (line_of(text, "follows:"), len('    follows: "True)') + 1)
    assert "unexpected ']'" in error.message


def test_what_a_bet_makes_is_code_with_the_files_texts_in_it_where_they_are_written():
    found = []
    tree, _ = expand_bets(load_tree(ENVITE), lambda *problem: found.append(problem))
    functions, moves = tree["functions"], tree["moves"]
    made = [functions[signature] for signature in functions if str(signature).startswith("stake_")]
    made += [move[key] for move in (moves["bet"], moves["answer"]) for key in ("choose", "when", "label", "then")]
    made += [variable["init"] for name, variable in tree["state"].items() if str(name).startswith("stake_")]
    assert not found and len(made) == 19 and all(isinstance(value, Code) for value in made)
    options = functions["stake_options(player)"].expression("the options")
    [turn] = [name for name in options.find_all(nodes.Name) if name.id == "turn"]
    line = line_of(ENVITE.read_text(encoding="utf-8"), 'open: "player == turn"')
    assert (turn.loc.line, turn.loc.col) == (line, len('    open: "player == ') + 1)  # (the file's open:)


def test_a_misspelt_reset_of_a_bet_is_one_error(tmp_path):
    # (each variable the bet makes starts again on it: the mistake is still one)
    [(line, _, message, hint)] = errors_of(tmp_path, "    base: 1\n", "    base: 1\n    reset: pley\n")
    assert line == line_of(LADDER, "base: 1") + 1 and "'pley' is not a phase" in message
    assert hint == "did you mean 'play'?"


def test_a_misspelt_statement_in_a_bets_actions_gets_a_did_you_mean(tmp_path):
    [(line, col, message, hint)] = errors_of(tmp_path, 'refused: "passes = 99"', 'refused: "anounce stake_by"')
    assert (line, col) == (line_of(LADDER, "refused:"), len('    refused: "anounce ') + 1)
    assert "unexpected 'stake_by'" in message and "augop" not in message and hint == "did you mean 'announce'?"


def test_a_name_the_bet_makes_cannot_be_declared_again(tmp_path):
    [(line, _, message, _)] = errors_of(tmp_path, "  passes: 0\n", "  passes: 0\n  stake_asked: 0\n")
    assert line == line_of(LADDER, "passes: 0") + 1 and "the bet 'stake' makes the state variable" in message
    [(line, _, message, _)] = errors_of(tmp_path, "moves:\n", "moves:\n  stake: {then: \"passes = 1\"}\n")
    assert line == line_of(LADDER, "moves:") + 1 and "writes its then" in message


def test_the_docs_examples_of_bets_are_the_shipped_files_own_lines():
    page = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = page[page.index("\n## Bets\n"):page.index("\n## Visibility and views\n")]
    envite, mus, poker = [block.split("```")[0] for block in section.split("```yaml\n")[1:]]
    example = ENVITE.read_text(encoding="utf-8")
    for part in envite.strip("\n").split("\n\n"):
        assert part + "\n" in example, part
    shipped = (ROOT / "rulesets" / "mus.yaml").read_text(encoding="utf-8").splitlines()
    for line in mus.strip("\n").splitlines():
        assert not line or line in shipped, line
    holdem = (ROOT / "rulesets" / "texas_holdem.yaml").read_text(encoding="utf-8").splitlines()
    for line in poker.strip("\n").splitlines():
        assert line.split("#")[0].rstrip() in [shipped_line.split("#")[0].rstrip() for shipped_line in holdem], line


def test_a_function_the_bet_makes_cannot_be_declared_again(tmp_path):
    [(line, col, message, _)] = errors_of(tmp_path, "moves:\n", 'functions:\n  stake_stake(): "1"\nmoves:\n')
    assert (line, col) == (line_of(LADDER, "moves:") + 1, 3) and "makes the function 'stake_stake'" in message


def test_a_variant_changes_one_key_of_a_bet(tmp_path):
    base = write_rules(tmp_path, LADDER, name="ladder.yaml")
    variant = write_rules(tmp_path, f"""
        extends: {base}
        bets:
          stake: {{worth: [5, 7, 9]}}
        """, name="variant.yaml")
    game = started(variant)
    choose(game, "one")
    choose(game, "two")
    assert V(game)["stake_calls"] == ["one", "two"] and V(game)["stake_accepted"] == 1
    assert compile_expression(game.program, "(stake_stake(), stake_value())")(game.memory) == (5, 7)
    choose(game, "refuse")
    assert game.over and V(game)["passes"] == 99  # the base's refusal still runs


# A Mus-style envite among two partnerships: a raise of 2 or 5 (sized), or all-in, answered by the next opponent
# and, if he refuses, by his partner; a raise answering a call accepts it and adds to it.
ENVITES = """
game: envites
players: {min: 4, max: 4, default: 4}
teams: parity
state:
  turn: "players[0]"
  passes: 0
  paid: "None"
phases: [play]
bets:
  pot:
    calls: [raise, all-in]
    move: {raise: up, all-in: shove}
    size: {raise: "[2, 5]"}
    answerers: "[q for q in seating(next_player(player)) if team(q) != team(player)]"
    open: "player == turn"
    follows: "'all-in' not in pot_calls"
    raiser: any
    adds: true
    base: 1
    worth: "100"
    accepted: "paid = ('accepted', pot_value())"
    refused: "paid = ('refused', pot_stake(), pot_by.name)"
moves:
  wait:
    then: |
      passes += 1
      turn = next_player(player)
  up: {label: "f'{n} more' if pot_answering(player) else f'raise {n}'"}
rules:
  - name: ask_the_answer
    when: "pot_asked is not None"
    then: "ask pot_asked to answer, up, shove"
  - name: ask_the_turn
    when: "pot_asked is None and paid is None and passes < 4"
    then: "ask turn to wait, up, shove"
  - name: stop
    when: "pot_asked is None and (paid is not None or passes >= 4)"
    then: "end game"
"""


def test_a_sized_call_chooses_its_amount_and_a_raise_adds_to_what_it_accepts(tmp_path):
    game = started(write_rules(tmp_path, ENVITES), players=4)
    assert labels(game) == ["wait", "raise 2", "raise 5", "all-in"]
    choose(game, "raise 5")
    assert V(game)["pot_calls"] == ["raise"] and V(game)["pot_sizes"] == [5]
    assert (game.mover.name, labels(game)) == ("P2", ["accept", "refuse", "2 more", "5 more", "all-in"])
    choose(game, "2 more")                       # accepts the 5, and adds 2
    assert V(game)["pot_sizes"] == [5, 2] and V(game)["pot_accepted"] == 1
    assert compile_expression(game.program, "(pot_stake(), pot_value())")(game.memory) == (5, 7)
    assert game.mover.name == "P3"               # the next opponent of P2
    choose(game, "accept")
    assert game.over and V(game)["paid"] == ("accepted", 7)


def test_a_refusal_asks_the_next_answerer_and_the_call_is_refused_when_the_last_refuses(tmp_path):
    game = started(write_rules(tmp_path, ENVITES), players=4)
    choose(game, "raise 2")
    assert game.mover.name == "P2" and [p.name for p in V(game)["pot_next"]] == ["P4"]
    choose(game, "refuse")
    assert game.mover.name == "P4" and V(game)["paid"] is None   # not refused yet: his partner is asked
    assert labels(game) == ["accept", "refuse", "2 more", "5 more", "all-in"]
    choose(game, "refuse")
    assert game.over and V(game)["paid"] == ("refused", 1, "P1")  # nothing accepted before: the base


def test_the_partner_may_accept_or_raise_after_a_refusal(tmp_path):
    game = started(write_rules(tmp_path, ENVITES), players=4)
    choose(game, "raise 2")
    choose(game, "refuse")
    choose(game, "all-in")                       # P4 accepts the 2 and goes all-in: P1, then P3, answer
    assert V(game)["pot_calls"] == ["raise", "all-in"] and V(game)["pot_accepted"] == 1
    assert (game.mover.name, labels(game)) == ("P1", ["accept", "refuse"])
    choose(game, "refuse")
    assert game.mover.name == "P3"
    choose(game, "refuse")
    assert game.over and V(game)["paid"] == ("refused", 2, "P4")  # what was accepted before the all-in


def envites_errors(tmp_path, old, new):
    text = ENVITES.replace(old, new)
    assert text != ENVITES
    error, *uses = load_errors(write_rules(tmp_path, text))
    assert all(e.message == "unknown move 'shove'" for e in uses)  # (a move the bet no longer names)
    return error.location.line, error.message


def test_wrong_sizes_moves_and_answerers_are_located(tmp_path):
    size_line, move_line = line_of(ENVITES, "size:"), line_of(ENVITES, "move: {raise")
    line, message = envites_errors(tmp_path, 'size: {raise: "[2, 5]"}', 'size: {rise: "[2, 5]"}')
    assert line == size_line and "'size' gives the amounts of 'rise'" in message
    line, message = envites_errors(tmp_path, "move: {raise: up, all-in: shove}", "move: {raise: up}")
    assert line == move_line and "no move for the call 'all-in'" in message
    line, message = envites_errors(tmp_path, "move: {raise: up, all-in: shove}", "move: pot")
    assert line == size_line and "the sized call 'raise' needs a move of its own" in message
    line, message = envites_errors(tmp_path, "    answerers:", '    answerer: "next_player(player)"\n    answerers:')
    assert line == line_of(ENVITES, "answerers:") + 1 and "not both" in message
    line, message = envites_errors(tmp_path, 'size: {raise: "[2, 5]"}', 'size: {raise: "[2, fiv]"}')
    assert line == size_line and "fiv" in message


def test_a_call_nobody_may_answer_is_not_offered(tmp_path):
    # answerers that give nobody (here: the opponents still in, when none is): no call to make, and no failure
    text = ENVITES.replace('answerers: "[q for q in seating(next_player(player)) if team(q) != team(player)]"',
                           'answerers: "[q for q in seating(next_player(player)) if team(q) != team(player) and '
                           'passes > 0]"')
    game = started(write_rules(tmp_path, text), players=4)
    assert labels(game) == ["wait"]
    choose(game, "wait")
    assert game.mover.name == "P2" and labels(game) == ["wait", "raise 2", "raise 5", "all-in"]
