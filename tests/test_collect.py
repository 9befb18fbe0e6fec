"""A part chosen again and again (`collect:` with `until:`): a compound move whose part takes one value at a time
until a condition holds (a card, then as many table cards as make a sum), with a fixed action space (the part's
values numbered once), its values so far in scope as a tuple."""
from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import pytest
from click.testing import CliRunner

from naipes import Game, load_program
from naipes.agents.registry import load_strategy
from naipes.bridges.actions import ActionSpace
from naipes.errors import RuleErrors
from naipes.program import get
from naipes.tools.cli import main, table_printer

from helpers import load_errors, write_rules

# Two players; four cards face up on the table, three in each hand. A player captures with a card of his hand and
# table cards that make ten with it (taken one at a time: as many as it takes), then says how (quietly or loudly,
# a part after the repeated one); or lays a card on the table. Whoever has won more cards when the hands are empty
# wins. `log` keeps each capture: the card, the cards taken in the order taken, and how.
CAPTURE = """
game: captures
players: 2
cards:
  attributes: {suit: [o, c], rank: [1, 2, 3, 4, 5, 6, 7]}
zones:
  deck: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
  table: {visibility: public}
  won: {per_player: true, visibility: public}
state:
  turn: "players[0]"
  log: "[]"
phases:
  play:
functions:
  # some of `cards` add up to exactly n
  reaches(n, cards): |
    if n == 0:
        return True
    if n < 0 or len(cards) == 0:
        return False
    return reaches(n - cards[0].rank, cards[1:]) or reaches(n, cards[1:])
  total(cards): "sum(c.rank for c in cards)"
  left(taken): "[u for u in table if u not in taken]"
moves:
  capture:
    choose: "c in player.hand"
    legal: "reaches(10 - c.rank, [t for t in table])"
    label: "f'capture with {c.name}'"
    parts:
      - choose: "t in table"
        collect: taken
        legal: "t not in taken and reaches(10 - c.rank - total(taken) - t.rank, left(taken + (t,)))"
        label: "f'take {t.name}'"
        until: "c.rank + total(taken) == 10"
      - choose: "how in ['quietly', 'loudly']"
        label: "f'{how} with {len(taken)}'"
    then: |
      move c from player.hand to player.won
      move [t for t in taken] from table to player.won
      log = log + [(c.name, [t.name for t in taken], how)]
      turn = next_player(player)
  lay:
    choose: "c in player.hand"
    label: "f'lay {c.name}'"
    then: |
      move c from player.hand to table
      turn = next_player(player)
setup: |
  move all_cards() to deck
  shuffle deck
  deal 4 from deck to [table]
  deal 3 from deck to [p.hand for p in players]
rules:
  - name: ask_the_turn
    phase: play
    when: "any(len(p.hand) > 0 for p in players)"
    then: "ask turn to capture, lay"
  - name: more_cards_won_wins
    phase: play
    when: "all(len(p.hand) == 0 for p in players)"
    then: "end game winner max(players, key=lambda p: len(p.won))"
"""


@pytest.fixture(scope="module")
def captures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_rules(tmp_path_factory.mktemp("captures"), CAPTURE, "captures.yaml")


def rank(card) -> int:
    return get(card, "rank")


def completions(need: int, table: list) -> list[tuple]:
    """Every set of table cards making `need` (the rules, written apart from the rule file's)."""
    return [s for k in range(1, len(table) + 1) for s in combinations(table, k) if sum(rank(c) for c in s) == need]


def a_capture(captures: Path) -> tuple[Game, list]:
    """A started game whose first player can capture in more than one way with some card, and that card."""
    program = load_program(captures)
    for seed in range(200):
        game = Game(program, seed)
        game.start()
        table = list(game.memory.vars["table"])
        for card in get(game.memory.players[0], "hand"):
            if len(completions(10 - rank(card), table)) > 1:
                return game, [card]
    raise AssertionError("no seed gives a choice of captures")


def test_the_part_is_offered_again_until_its_condition_holds_then_the_next_part(captures):
    game, (card,) = a_capture(captures)
    table = list(game.memory.vars["table"])
    ways = completions(10 - rank(card), table)
    game.apply(next(o for o in game.options() if o.move == "capture" and o.arg == card))
    taken: list = []
    while game.options()[0].move == "capture.taken":
        offered = {o.arg for o in game.options()}
        # offered: every table card not taken yet that belongs to some way of completing what is taken
        assert offered == {t for way in ways if set(taken) <= set(way) for t in way if t not in taken}
        assert all(o.label == f"take {o.arg.name}" for o in game.options())
        choice = random.Random(len(taken)).choice(sorted(game.options(), key=lambda o: o.label))
        taken.append(choice.arg)
        game.apply(choice)
        assert game.memory.vars["log"] == [], "nothing is made before the last part"
        assert game.memory.partial[1] == (card, tuple(taken))
    assert rank(card) + sum(rank(t) for t in taken) == 10, "the part ended once the condition held"
    assert [o.label for o in game.options()] == [f"quietly with {len(taken)}", f"loudly with {len(taken)}"]
    game.apply(game.options()[1])
    assert game.memory.vars["log"] == [(card.name, [t.name for t in taken], "loudly")]
    assert set(taken) <= set(get(game.memory.players[0], "won")) and game.to_move.index == 1


def test_every_capture_in_random_games_makes_ten(captures):
    program = load_program(captures)
    captured = 0
    for seed in range(30):
        game, rng = Game(program, seed), random.Random(seed)
        game.start()
        while not game.over:
            game.apply(rng.choice(game.options()))
        for card, taken, _ in game.memory.vars["log"]:
            assert int(card[1:]) + sum(int(t[1:]) for t in taken) == 10 and len(set(taken)) == len(taken)
            captured += 1
    assert captured > 20


def test_a_begun_collection_is_hidden_from_the_others_and_taken_back_by_undo(captures):
    game, (card,) = a_capture(captures)
    game.apply(next(o for o in game.options() if o.move == "capture" and o.arg == card))
    before = game.memory.key()
    point = game.make(game.options()[0])
    assert game.memory.key() != before and len(game.memory.partial[1][1]) == 1
    assert game.memory.seen_by(1).partial == ("capture", (None, None))
    assert game.view(0)["choosing"] == {"move": "capture", "chosen": [card.name, [game.memory.partial[1][1][0].name]]}
    assert "choosing" not in game.view(1)
    game.undo(point)
    assert game.memory.key() == before and game.memory.partial == ("capture", (card,))


def test_the_action_space_numbers_the_repeated_part_once(captures):
    space = ActionSpace(load_program(captures))
    names = [space.describe(a) for a in range(space.size)]
    assert len([n for n in names if n.startswith("capture.taken ")]) == 14, "the part's values: the deck, once"
    assert [n for n in names if n.startswith("capture.how")] == ["capture.how quietly", "capture.how loudly"]
    game, (card,) = a_capture(captures)
    game.apply(next(o for o in game.options() if o.move == "capture" and o.arg == card))
    assert all(names[a].startswith("capture.taken ") for a in space.legal_ids(game))


def test_agents_and_bridges_play_repeated_parts(captures):
    for seats in (["random", "ismcts:iterations=20"], ["pimc:worlds=3", "random"]):
        result = CliRunner().invoke(main, ["simulate", str(captures), "-n", "3", "--seed", "1",
                                           *[a for seat in seats for a in ("--seat", seat)]])
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is an optional extra")
    from naipes.bridges.openspiel import load_game
    pyspiel.random_sim_test(load_game(captures), num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize("old, new, message", [
    ('        until: "c.rank + total(taken) == 10"\n', "", "'collect' needs 'until'"),
    ("        collect: taken\n", "", "'until' goes with 'collect'"),
    ("        collect: taken\n", "        collect: c\n", "'c' is already a name here"),
    ("        collect: taken\n", "        collect: 2x\n", "not a valid part name"),
    ('until: "c.rank + total(taken) == 10"', 'until: "c.rank + total(takn) == 10"', "'takn'"),
])
def test_a_mistake_in_a_repeated_part_is_located(tmp_path, old, new, message):
    assert old in CAPTURE
    errors = [e for e in load_errors(write_rules(tmp_path, CAPTURE.replace(old, new))) if message in e.message]
    line = next(i for i, text in enumerate(CAPTURE.splitlines(), 1) if text.startswith("      - choose: \"t in"))
    assert errors and line <= errors[0].location.line <= line + 5, errors


STRATEGY = """
game: captures
rules:
  - name: capture_with_the_highest
    move: capture
    choose: "max(options, key=lambda c: c.rank)"
  # the card played and the cards taken so far are in scope, by the game's names for them
  - name: complete_at_once
    move: capture.taken
    choose: "first([t for t in options if c.rank + total(taken) + t.rank == 10])"
  - name: else_the_lowest
    move: capture.taken
    choose: "min(options, key=lambda t: t.rank)"
"""


def test_a_strategy_choosing_a_part_reads_the_values_chosen_before_it(captures, tmp_path):
    from naipes import make_agent
    strategy = write_rules(tmp_path, STRATEGY, "completes.yaml")
    program = load_program(captures)
    checked = 0
    for seed in range(20):
        game, agent = Game(program, seed), make_agent(str(strategy), seed=seed, program=program)
        game.start()
        while not game.over and checked < 40:
            decision = game.decision()
            if decision.player != 0:
                game.apply(random.Random(seed).choice(game.options()))
                continue
            option, rule = agent.decide(decision)
            begun = game.begun()
            if option.move == "capture.taken":
                card, taken = begun[1]
                need = 10 - rank(card) - sum(rank(t) for t in taken)
                at_once = [o for o in decision.options if rank(o.arg) == need]
                assert rule == ("complete_at_once" if at_once else "else_the_lowest")
                assert option.arg == (at_once[0].arg if at_once else min((o.arg for o in decision.options), key=rank))
                checked += 1
            game.apply(option)
    assert checked >= 20


def test_a_strategy_naming_a_repeated_part_by_its_choose_is_told_its_name(captures, tmp_path):
    # the part is named by its collect: (capture.taken), not by the name of the value offered (t)
    strategy = write_rules(tmp_path, STRATEGY.replace("move: capture.taken\n    choose: \"first",
                                                      "move: capture.t\n    choose: \"first"), "completes.yaml")
    with pytest.raises(RuleErrors) as caught:
        load_strategy(str(strategy), load_program(captures))
    error = caught.value.errors[0]
    assert error.message == "'capture.t' is not a move of captures" and error.location.line == 8
    assert error.hint.startswith("the parts of 'capture' are capture.taken, capture.how")


def test_a_person_at_the_terminal_is_told_the_values_taken_so_far_one_by_one(captures):
    told = []
    for seed in range(10):
        result = CliRunner().invoke(main, ["play", str(captures), "--seat", "human", "--seat", "random",
                                           "--seed", str(seed)], input="1\n" * 40 + "quit\n")
        assert "Traceback" not in result.output
        told += [line for line in result.output.splitlines() if "chosen so far" in line]
    # the card played, then each table card taken, as the table names cards (never a list: ['3o'])
    assert any(line.count(",") >= 1 for line in told) and not any("[" in line or "'" in line for line in told)


def test_a_part_whose_public_form_is_empty_tells_the_others_nothing(tmp_path, capsys):
    # (not 'P1: ' once for each table card taken: the capture is told by the parts around it)
    part = "        label: \"f'take {t.name}'\"\n"
    program = load_program(write_rules(tmp_path, CAPTURE.replace(part, part + "        public: \"''\"\n")))
    taken, history, printed = 0, [], []
    for seed in range(10):
        game, rng = Game(program, seed), random.Random(seed)
        game.keep_history()
        game.observers.append(table_printer(program))
        game.start()
        while not game.over:
            taken += game.options()[0].move == "capture.taken"
            game.apply(rng.choice(game.options()))
        history += game.history
        printed += capsys.readouterr().out.splitlines()
    assert taken > 10 and len(history) > 50 and len(printed) > 50
    assert all(text.strip(" :") not in ("P1", "P2") for text in history + printed)
    assert any(text.startswith("P1: capture with ") for text in history)
