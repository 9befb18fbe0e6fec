"""`naipes check` warns of a move that tells the others a card they cannot see: without `public:` a move is told
as its label reads, and "bury 4" gives away the card buried face down."""
from naipes import load_program
from naipes.tools.trials import random_games

GAME = """\
game: t
players: {min: 2, max: 3, default: 2, ai: random}
cards:
  attributes: {rank: [1, 2, 3, 4, 5, 6]}
  name: "str(c.rank)"
  start: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
  buried: {visibility: hidden}
  table: {visibility: public}
state:
  turn: "players[0]"
phases:
  deal:
    enter:
      - deal_the_hands: |
          shuffle stock
          deal 2 from stock to [p.hand for p in players]
          goto play
  play:
moves:
  MOVE:
    choose: "c in player.hand"
    label: "f'MOVE {c.name}'"
    PUBLIC
    then: |
      move c to WHERE
      turn = next_player(player)
rules:
  - name: ask_to_move
    phase: play
    when: "len(turn.hand) > 0"
    then: "ask turn to MOVE"
  - name: the_end
    phase: play
    when: "len(turn.hand) == 0"
    then: "end game"
"""


def warnings(tmp_path, move, where, public=""):
    path = tmp_path / "g.yaml"
    path.write_text(GAME.replace("MOVE", move).replace("WHERE", where).replace("PUBLIC", public), encoding="utf-8")
    return random_games(load_program(path), 4, 1).warnings


def test_a_label_naming_a_buried_card_is_a_warning(tmp_path):
    found = warnings(tmp_path, "bury", "buried")
    assert len(found) == 1 and "move 'bury' tells every player 'bury " in found[0] and "write 'public:'" in found[0]


def test_a_card_played_face_up_or_a_public_text_is_no_warning(tmp_path):
    assert warnings(tmp_path, "play", "table") == []
    assert warnings(tmp_path, "bury", "buried", public="public: \"'buries a card'\"") == []
