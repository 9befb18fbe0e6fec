"""Compound moves (`parts:`): a move whose choice has several parts, made one after the other by the same player
(each with its own legal set, label and public form; the last part's label reads the whole), whose effect runs
once every part is chosen, with an action space numbered part by part."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from naipes import Game, GameError, RuleError, load_program
from naipes.bridges.actions import ActionSpace
from naipes.program import get
from naipes.tools.cli import main
from naipes.tools.replay import Replay

from helpers import load_errors, write_rules

# Two players hold four cards each. A player may pass two of his cards to the other (a compound move: the first
# card, then another), or stand. The game ends when both have stood; the player holding more points wins.
# `log` keeps each pass as it was made; `seen` what a player's hand was when his pass was made.
PASS = """
game: passes
players: 2
cards:
  attributes: {suit: [o, c], rank: [1, 2, 3, 4]}
zones:
  deck: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
state:
  log: "[]"
  stood: 0
  turn: "players[0]"
player_state:
  seen: {init: "None", visibility: public}
phases:
  play:
functions:
  points(hand): "sum(c.rank for c in hand)"
moves:
  give:
    choose: "c in player.hand"
    legal: "c.rank < 4"
    label: "f'give {c.name}'"
    public: "'gives a card'"
    parts:
      - "d in player.hand"
      - choose: "e in ['now', 'later']"
        legal: "e == 'now' or d.suit == c.suit"
        label: "f'give {c.name} and {d.name} {e}'"
        public: "'gives two cards'"
    then: |
      player.seen = len(player.hand)
      move [c, d] from player.hand to next_player(player).hand
      log = log + [(player.index, c.name, d.name, e)]
      turn = next_player(player)
    space: "all_cards()"
  stand:
    then: |
      stood = stood + 1
      turn = next_player(player)
setup: |
  move all_cards() to deck
  shuffle deck
  deal 4 from deck to [p.hand for p in players]
rules:
  - name: ask_the_turn
    phase: play
    when: "stood < 2 and turn in players"
    then: "ask turn to give, stand"
  - name: the_most_points_wins
    phase: play
    when: "stood >= 2"
    then: "end game winner max(players, key=lambda p: points(p.hand))"
"""


@pytest.fixture
def passes(tmp_path: Path) -> Path:
    return write_rules(tmp_path, PASS, "passes.yaml")


def started(path: Path, seed: int = 3, listen: list | None = None) -> Game:
    game = Game(load_program(path), seed)
    if listen is not None:
        game.observers.append(listen.append)
    game.start()
    return game


def first(game: Game, move: str):
    return next(o for o in game.options() if o.move == move)


def hand(game: Game, seat: int) -> list[str]:
    return sorted(c.name for c in get(game.memory.players[seat], "hand"))


def test_the_same_player_chooses_each_part_in_turn_and_the_move_is_made_with_all(passes):
    game = started(passes)
    mine = hand(game, 0)
    # the first part: a card under 4, beside the other move asked
    assert {o.label for o in game.options() if o.move == "give"} == \
        {f"give {c}" for c in mine if not c.endswith("4")}
    assert any(o.move == "stand" for o in game.options())
    c = first(game, "give")
    game.apply(c)
    assert game.to_move.index == 0 and hand(game, 0) == mine, "nothing is made before the last part"
    assert {o.move for o in game.options()} == {"give.d"}
    assert sorted(o.arg.name for o in game.options()) == mine, "the second part's candidates: the hand"
    d = next(o for o in game.options() if o.arg.suit != c.arg.suit)
    game.apply(d)
    # the third part's legal set depends on the earlier two: 'later' only with two cards of one suit
    assert [o.arg for o in game.options()] == ["now"]
    assert game.options()[0].label == f"give {c.arg.name} and {d.arg.name} now", "the last label reads the whole"
    game.apply(game.options()[0])
    assert game.memory.vars["log"] == [(0, c.arg.name, d.arg.name, "now")]
    assert game.memory.players[0].seen == 4 and len(hand(game, 0)) == 2 and len(hand(game, 1)) == 6
    assert game.to_move.index == 1 and game.memory.partial is None


def test_each_part_is_told_to_the_others_by_its_public_form(passes):
    told: list = []
    game = started(passes, listen=told)
    game.apply(first(game, "give"))
    game.apply(game.options()[0])
    game.apply(game.options()[0])
    _, c, d, e = game.memory.vars["log"][0]
    # a part without `label` or `public` reads as its value
    assert [(r["move"], r["choice"]) for r in told if r["type"] == "decision"] == \
        [("give", "gives a card"), ("give.d", d), ("give.e", "gives two cards")]


def test_a_begun_move_is_shown_to_its_player_alone_and_taken_back_by_undo(passes):
    game = started(passes)
    game.apply(first(game, "give"))
    chosen = game.memory.partial[1][0].name
    assert game.view(0)["choosing"] == {"move": "give", "chosen": [chosen]} and "choosing" not in game.view(1)
    assert game.memory.seen_by(1).partial == ("give", (None,))
    before = game.memory.key()
    point = game.make(game.options()[0])
    assert game.memory.key() != before and len(game.memory.partial[1]) == 2
    game.undo(point)
    assert game.memory.key() == before and len(game.memory.partial[1]) == 1
    copy = game.clone()
    copy.apply(copy.options()[0])
    copy.apply(copy.options()[0])
    assert copy.memory.partial is None and len(game.memory.partial[1]) == 1


def test_the_action_space_numbers_each_part_apart(passes):
    space = ActionSpace(load_program(passes))
    names = [space.describe(a) for a in range(space.size)]
    assert names[:8] == [f"give {c}" for c in ("o 1", "o 2", "o 3", "o 4", "c 1", "c 2", "c 3", "c 4")]
    assert names[8:16] == [f"give.d {c}" for c in ("o 1", "o 2", "o 3", "o 4", "c 1", "c 2", "c 3", "c 4")]
    assert names[16:] == ["give.e now", "give.e later", "stand"]
    game = started(passes)
    game.apply(first(game, "give"))
    assert all(8 <= a < 16 for a in space.legal_ids(game))


def test_a_compound_answer_to_each_of_is_held_until_all_are_in(tmp_path):
    text = (PASS.replace('then: "ask turn to give, stand"', 'then: "ask each of players to give, stand"')
            .replace("      turn = next_player(player)\n", ""))
    game = started(write_rules(tmp_path, text))
    game.apply(first(game, "give"))
    game.apply(game.options()[0])
    game.apply(game.options()[0])
    assert game.to_move.index == 1 and game.memory.vars["log"] == [], "P1's whole move is held"
    game.apply(first(game, "stand"))
    assert len(game.memory.vars["log"]) == 1 and game.memory.vars["stood"] == 1


def test_agents_bridges_and_logs_play_compound_moves(passes, tmp_path):
    for seats in (["random", "ismcts:iterations=20"], ["pimc:worlds=3", "random"]):
        result = CliRunner().invoke(main, ["simulate", str(passes), "-n", "3", "--seed", "1",
                                           *[a for seat in seats for a in ("--seat", seat)]])
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    log = tmp_path / "passes.jsonl"
    result = CliRunner().invoke(main, ["play", str(passes), "--seat", "random", "--seat", "random", "--seed", "4",
                                       "--log", str(log)])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    replay = Replay.load(log, passes)
    assert replay.game.over and replay.steps == len([r for r in replay.records if r["type"] == "decision"])
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is an optional extra")
    from naipes.bridges.openspiel import load_game
    pyspiel.random_sim_test(load_game(passes), num_sims=10, serialize=True, verbose=False)


def test_a_strategy_chooses_a_part_by_its_name(passes, tmp_path):
    strategy = write_rules(tmp_path, """
        game: passes
        rules:
          - name: give_the_lowest_first
            move: give
            choose: "min(options, key=lambda c: c.rank)"
          - name: then_the_highest
            move: give.d
            choose: "max(options, key=lambda c: c.rank)"
        """, "greedy.yaml")
    result = CliRunner().invoke(main, ["play", str(passes), "--seat", str(strategy), "--seat", "random",
                                       "--seed", "5"])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output


def test_a_person_at_the_terminal_is_told_what_he_has_chosen_so_far(passes):
    result = CliRunner().invoke(main, ["play", str(passes), "--seat", "human", "--seat", "random", "--seed", "3"],
                                input="1\n1\n1\nquit\n")
    assert "Traceback" not in result.output
    assert "give: chosen so far" in result.output


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("old, new, message, line", [
    ('      - "d in player.hand"\n', '      - "c in player.hand"\n', "'c' names an earlier choice already", 25),
    ('      - "d in player.hand"\n', '      - "d of player.hand"\n', "'choose' is 'NAME in COLLECTION'", 25),
    ('legal: "e == \'now\' or d.suit == c.suit"', 'legal: "e == \'now\' or f.suit == c.suit"', "'f'", 27),
    ('    choose: "c in player.hand"\n    legal: "c.rank < 4"\n', '', "give it 'choose'", 22),
])
def test_a_mistake_in_a_part_is_located(tmp_path, old, new, message, line):
    assert old in PASS
    errors = [e for e in load_errors(write_rules(tmp_path, PASS.replace(old, new))) if message in e.message]
    assert errors and errors[0].location.line == line, errors


def test_a_part_with_no_legal_choice_is_an_error_naming_it(tmp_path):
    text = PASS.replace('legal: "e == \'now\' or d.suit == c.suit"', 'legal: "False"')
    game = started(write_rules(tmp_path, text))
    game.apply(first(game, "give"))
    game.apply(game.options()[0])
    with pytest.raises(GameError, match="no legal choice for its part 'e'"):
        game.options()


def test_the_web_table_offers_the_next_part_alone(passes):
    pytest.importorskip("starlette", reason="the web table is an optional extra")
    from test_together import wait_for

    from naipes.web.table import Table
    table = Table(load_program(passes), ["human", "random"], 3)
    table.start()
    try:
        state = wait_for(table, 0, lambda s: s["your_turn"])
        give = next(o for o in state["options"] if o["move"] == "give")
        assert table.submit(0, {"serial": state["serial"], "label": give["label"]}).result(20) is None
        # (the move is accepted before the game makes it: the position after it is shown a moment later)
        state = wait_for(table, 0, lambda s, before=state["serial"]: s["serial"] > before)
        assert state["moves"] == ["give.d"] and state["view"]["choosing"]["move"] == "give"
    finally:
        table.close()


def test_a_part_whose_choices_read_the_state_is_located_where_it_is_declared(tmp_path):
    part = "      - choose: \"e in ['now', 'later']\"\n"
    path = write_rules(tmp_path, PASS.replace(part, part.replace("]", "][:stood + 1]")))
    with pytest.raises(RuleError, match="the choices of move 'give.e' depend on the game's state") as info:
        ActionSpace(load_program(path))
    line = PASS.lstrip("\n").splitlines().index(part.rstrip("\n")) + 1
    assert (info.value.location.file, info.value.location.line, info.value.location.col) == (str(path), line, 9)
    assert "space:" in info.value.hint


# A card game's wild card: a card played is one decision, an 8 a second (the suit it names); a last part, a
# remark, is asked only when the suit named is the card's own (a part after one passed over reads its None).
EIGHTS = """
game: eights
players: 2
cards:
  attributes: {suit: [o, c], rank: [7, 8]}
zones:
  deck: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
state:
  log: "[]"
  turn: "players[0]"
phases:
  play:
moves:
  play:
    choose: "c in player.hand"
    parts:
      - choose: "s in ['o', 'c']"
        when: "c.rank == 8"
      - choose: "r in ['same', 'again']"
        when: "s == c.suit"
    then: |
      move c from player.hand to deck
      log = log + [(c.name, s, r)]
      turn = next_player(player)
setup: |
  move all_cards() to deck
  deal 2 from deck to [p.hand for p in players]
rules:
  - name: ask_the_turn
    phase: play
    when: "len(turn.hand) > 0"
    then: "ask turn to play"
  - name: the_end
    phase: play
    when: "all(len(p.hand) == 0 for p in players)"
    then: "end game"
"""


def test_a_part_whose_when_does_not_hold_is_passed_over_its_value_none(tmp_path):
    game = started(write_rules(tmp_path, EIGHTS, "eights.yaml"), seed=1)
    asked: list[list[str]] = []
    while not game.over:
        options = game.options()
        asked.append(sorted({o.move for o in options}))
        game.apply(options[-1])
    made = game.memory.vars["log"]
    assert len(made) == 4 and {card for card, _, _ in made} == {"o 7", "o 8", "c 7", "c 8"}
    for card, suit, remark in made:
        eight = card.endswith("8")
        assert (suit is None) != eight and (remark is None) != (eight and suit == card[0])
    # a 7 is one decision; an 8 is two, or three where the suit named is its own
    assert len(asked) == sum(1 + (c.endswith("8")) + (s == c[0]) for c, s, _ in made)
    assert ["play.s"] in asked


def test_held_answers_and_a_searchs_draws_of_them_pass_over_parts_as_a_decision_does(tmp_path):
    # asked each of the players, an answer is held whole; a search draws the others' held answers at random
    from naipes import play_game
    from naipes.agents.registry import make_agent
    text = EIGHTS.replace('then: "ask turn to play"', 'then: "ask each of players to play"')
    program = load_program(write_rules(tmp_path, text, "eights.yaml"))
    for seed in range(3):
        game = Game(program, seed)
        play_game(program, [make_agent("random", seed), make_agent("ismcts:iterations=30", seed, program)], seed,
                  game=game)  # (the search answers second: P1's answer is held, and drawn again in its worlds)
        made = game.memory.vars["log"]
        assert len(made) == 4 and all((s is None) != card.endswith("8") for card, s, _ in made)
