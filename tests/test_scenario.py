"""The scenario harness builds positions from short text, keeping cards conserved."""
import pytest

from naipes.errors import NaipesError
from naipes.tools.scenario import arrange, cards, new_game, zone

from helpers import shipped


def test_arrange_sets_zones_state_and_the_decision():
    game = new_game(shipped("fichas"), {"chips": "R1 R2 B1 G3"})
    arrange(game, zones={"removed": "R2 G3"}, spare="table", state={"turn": "players[1]"},
            to_move=("P2", "take_colour, take_value"))
    assert sorted(c.name for c in zone(game, "table")) == ["B1", "R1"]
    assert game.memory.vars["turn"].name == "P2"
    assert sorted(o.label for o in game.options()) == ["colour B", "colour R", "value 1"]
    # every chip is still in exactly one zone
    assert sorted(c.id for z in game.memory.zones for c in z) == [0, 1, 2, 3]


def test_duplicate_names_pick_distinct_cards():
    game = new_game(shipped("fichas"), {"chips": "R1 R1 B2"})
    first, second = cards(game, "R1 R1")
    assert first is not second
    with pytest.raises(NaipesError, match="no card 'R1' left"):
        cards(game, "R1 R1 R1")


def test_settle_lets_the_rules_fire():
    game = new_game(shipped("fichas"), {"chips": "R1 B2"})
    arrange(game, zones={"removed": "R1 B2"}, spare="table", state={"last_taker": "players[0]"}, settle=True)
    assert game.over and game.winners == (0,)


def test_the_spare_zone_cannot_be_set():
    game = new_game(shipped("fichas"), {"chips": "R1 B2"})
    with pytest.raises(NaipesError, match="spare"):
        arrange(game, zones={"table": "R1"})
