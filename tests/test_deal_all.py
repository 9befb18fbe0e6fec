"""`deal all from ZONE to ZONES`: every card, round robin, the first zones one more where they do not go round
evenly (three players and ten cards: 4, 3, 3), as a pack is dealt out in Whist or Old Maid."""
import pytest

from naipes import load_program
from naipes.agents.knowledge import Knowledge
from naipes.runtime.game import Game

GAME = """\
game: t
players: {min: 2, max: 4, default: 3, ai: random}
cards:
  attributes: {rank: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}
  start: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
phases:
  deal:
    enter:
      - deal_the_pack: |
          shuffle stock
          DEAL
rules:
  - name: the_end
    when: "True"
    then: end game
"""


def dealt(tmp_path, deal, players):
    path = tmp_path / "g.yaml"
    path.write_text(GAME.replace("DEAL", deal), encoding="utf-8")
    game = Game(load_program(path), 4, players=players)
    knowledge = Knowledge(game, 0)
    game.start()
    return game, knowledge


@pytest.mark.parametrize("players, sizes", [(3, [4, 3, 3]), (4, [3, 3, 2, 2]), (2, [5, 5])])
def test_deal_all_deals_every_card_round_robin(tmp_path, players, sizes):
    game, knowledge = dealt(tmp_path, "deal all from stock to [p.hand for p in players]", players)
    memory = game.memory
    assert [len(p.hand) for p in memory.players] == sizes and not memory.vars["stock"]
    for p in memory.players:
        assert all(memory.where[card] == p.hand.slot for card in p.hand)
    assert {knowledge.known[card.id] for card in memory.players[0].hand} == {memory.players[0].hand.slot}


def test_deal_all_deals_in_the_order_of_deal_n(tmp_path):
    """Where the cards go round evenly, `deal all` deals as `deal N` does, card for card."""
    by_all, _ = dealt(tmp_path, "deal all from stock to [p.hand for p in players]", 2)
    by_count, _ = dealt(tmp_path, "deal 5 from stock to [p.hand for p in players]", 2)
    assert [[c.id for c in p.hand] for p in by_all.memory.players] == \
        [[c.id for c in p.hand] for p in by_count.memory.players]
