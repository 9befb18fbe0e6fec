"""`show CARDS`: every player sees the cards where they are; the search agents' knowledge remembers them there."""
import random

import pytest

from naipes import load_program
from naipes.agents.knowledge import Knowledge
from naipes.errors import GameError
from naipes.runtime.game import Game

from helpers import load_errors

# Three players pass a card on in turn, showing it first (as a Go Fish player shows the cards he hands over): the
# third player, who holds neither hand, knows where each passed card went.
PASSING = """\
game: passing
players: {min: 3, max: 3, default: 3, ai: random}
cards:
  attributes:
    rank: [1, 2, 3, 4]
    colour: [red, black]
  name: "f'{c.rank}{c.colour[0]}'"
  start: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
state:
  turn: "players[0]"
  passes: 0
phases:
  deal:
    enter:
      - deal_the_hands: |
          shuffle stock
          deal 2 from stock to [p.hand for p in players]
          goto play
  play:
moves:
  pass_on:
    choose: "c in player.hand"
    then: |
      SHOW
      move c from player.hand to next_player(player).hand
      passes += 1
      turn = next_player(player)
rules:
  - name: ask_to_pass
    phase: play
    when: "passes < 2"
    then: "ask turn to pass_on"
  - name: done
    phase: play
    when: "passes == 2"
    then: "end game"
"""


def passing(tmp_path, show="show c"):
    path = tmp_path / "passing.yaml"
    path.write_text(PASSING.replace("SHOW", show), encoding="utf-8")
    return load_program(path)


def first_pass(program, seed=1):
    """The game after seat 0 passed a card to seat 1, with seat 2's knowledge, the card, and what was heard."""
    game = Game(program, seed)
    heard = []
    game.listeners.append(heard.append)
    knowledge = Knowledge(game, 2)
    game.start()
    option = game.decision().options[0]
    game.apply(option)
    return game, knowledge, option.arg, heard


def test_a_shown_card_is_known_where_it_goes(tmp_path):
    game, knowledge, card, heard = first_pass(passing(tmp_path))
    receiver = game.memory.players[1].hand
    assert game.memory.where[card] == receiver.slot
    assert knowledge.known[card.id] == receiver.slot
    rng = random.Random(3)
    for _ in range(30):  # every world the third player imagines holds it there
        world = knowledge.world(rng)
        assert world.memory.where[card] == receiver.slot
    assert {"type": "announce", "text": f"{game.memory.players[0].name} shows {card.name}"} in heard


def test_a_card_not_shown_is_not_known(tmp_path):
    """The same game without `show`: the third player cannot place the card (so the test above can fail)."""
    game, knowledge, card, heard = first_pass(passing(tmp_path, show="pass"))
    assert card.id not in knowledge.known
    assert not any("shows" in record.get("text", "") for record in heard)


def test_showing_a_zone_names_it(tmp_path):
    game, _, _, heard = first_pass(passing(tmp_path, show="show stock"))
    names = ", ".join(card.name for card in game.memory.vars["stock"])
    assert names
    assert {"type": "announce", "text": f"shown from stock: {names}"} in heard


def test_show_takes_cards(tmp_path):
    errors = load_errors(_written(tmp_path, "show 3"))
    assert "'show' takes a card, a list of cards or a zone, not int" in str(errors[0])
    assert errors[0].location is not None
    program = passing(tmp_path, show="show [c.rank]")
    with pytest.raises(GameError, match="'show' takes cards of this game"):
        first_pass(program)


def _written(tmp_path, show):
    path = tmp_path / "bad.yaml"
    path.write_text(PASSING.replace("SHOW", show), encoding="utf-8")
    return path
