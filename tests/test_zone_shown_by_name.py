"""A zone given as a value to show (a move's argument, its default label, a variable) is shown by its name, never as
its cards: a red team read the hidden stock's whole order from the web table's options of Chinchón's draw, and from
a default label ("draw ['6', '7', ...]") told to every seat."""
from naipes import load_program
from naipes.runtime.game import Game, jsonable

GAME = """\
game: t
players: {min: 2, max: 2, default: 2, ai: random}
cards:
  attributes: {rank: [1, 2, 3, 4, 5, 6]}
  name: "str(c.rank)"
  start: deck
zones:
  deck: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
state:
  turn: "players[0]"
phases:
  play:
moves:
  draw:
    choose: "pile in [deck]"
    then: |
      move top(pile) from pile to player.hand
      turn = next_player(player)
rules:
  - name: ask_to_draw
    when: "len(deck) > 2"
    then: "ask turn to draw"
  - name: the_end
    when: "len(deck) <= 2"
    then: "end game"
"""


def test_a_zone_is_shown_by_its_name(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    game = Game(load_program(path), 1)
    game.start()
    memory = game.memory
    assert jsonable(memory.vars["deck"]) == "deck"
    assert jsonable(memory.players[1].hand) == "P2.hand"
    [option] = game.decision().options
    assert option.label == "draw deck" and game.public_text(memory.players[0], option) == "draw deck"
