"""The chip game, pinned by scenarios.

N chips, each of one colour and one value.  Two players alternate; a move
takes every chip in play of one colour, or every chip in play of one value;
whoever takes the last chip wins.  Positions are explicit (``chips``) or
generated (``count``, ``colours``, ``values``, ``full``, the seed).
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from naipes.agents.registry import RandomAgent
from naipes.runtime.game import Game, play_game

from helpers import RULESETS, choose, labels, shipped_program

FICHAS = str(RULESETS / "fichas.yaml")
LETTERS = "RBGYWKOPCMNTLSVZDFHJQUXAEI"  # the rule file's colour letters, in order


def new_game(seed=0, **params):
    game = Game(shipped_program("fichas", **{k: str(v) for k, v in params.items()}), seed)
    game.start()
    return game


def table(game):
    return sorted(c.name for c in game.memory.vars["table"])


def removed(game):
    return sorted(c.name for c in game.memory.vars["removed"])


def chip(name):
    return name[0], int(name[1:])


# --------------------------------------------------------------- legal moves
@pytest.mark.parametrize("chips, expected", [
    ("R1 R2 B1 G3", {"colour R", "colour B", "colour G", "value 1", "value 2", "value 3"}),
    ("Y7", {"colour Y", "value 7"}),
    ("R1 R1 R1", {"colour R", "value 1"}),              # repeated chips: one option each
    ("R12 B3 R3", {"colour R", "colour B", "value 3", "value 12"}),  # values above 9
    ("B2 G2 Y2 W2", {"colour B", "colour G", "colour Y", "colour W", "value 2"}),
])
def test_the_legal_moves_are_each_colour_and_each_value_in_play(chips, expected):
    game = new_game(chips=chips)
    assert len(labels(game)) == len(set(labels(game))), "an option is offered twice"
    assert set(labels(game)) == expected
    assert {o.move for o in game.options()} <= {"take_colour", "take_value"}


def test_the_legal_moves_follow_the_position():
    game = new_game(chips="R1 R2 B1 G3")
    choose(game, "value 1")  # takes R1 and B1
    assert set(labels(game)) == {"colour R", "colour G", "value 2", "value 3"}
    choose(game, "colour G")
    assert set(labels(game)) == {"colour R", "value 2"}


def test_a_colour_or_value_not_in_play_is_explained_as_illegal():
    game = new_game(chips="R1 R2 B1 G3")
    assert game.explain_illegal("take_colour", "Y") is not None
    assert game.explain_illegal("take_value", 4) is not None
    assert game.explain_illegal("take_colour", "B") is None


# ------------------------------------------------------------- move effects
POSITIONS = ["R1 R2 B1 G3", "R1 B2 G3 Y4 R4 B4", "R1 R1 B1 B2 G2 G3", "Y5 Y6 W5 W6 K7"]


@pytest.mark.parametrize("chips", POSITIONS)
def test_a_move_takes_every_chip_of_its_colour_or_value_and_nothing_else(chips):
    names = chips.split()
    probe = new_game(chips=chips)
    for label in labels(probe):
        kind, what = label.split()
        taken = [n for n in names if (chip(n)[0] == what if kind == "colour" else chip(n)[1] == int(what))]
        game = new_game(chips=chips)
        choose(game, label)
        assert Counter(removed(game)) == Counter(taken), label
        assert Counter(table(game)) == Counter(names) - Counter(taken), label


def test_turns_alternate_and_the_mover_is_the_one_asked():
    game = new_game(chips="R1 B2 G3 Y4")
    movers = []
    while not game.over:
        movers.append(game.to_move.index)
        assert game.decision().player == game.to_move.index
        game.apply(game.options()[0])
    assert movers == [0, 1, 0, 1]  # four chips, no two share a colour or value: four moves


@pytest.mark.parametrize("chips, moves, winner", [
    ("R1", ["colour R"], 0),
    ("R1 B1", ["value 1"], 0),
    ("R1 B2", ["colour R", "colour B"], 1),
    ("R1 B2", ["value 2", "value 1"], 1),
    ("R1 R2 B1 G3", ["colour B", "colour G", "colour R"], 0),
    ("R1 R2 B1 G3", ["value 3", "value 2", "value 1"], 0),
    ("R1 R2 B1 G3", ["colour R", "value 1", "value 3"], 0),
    ("R1 R2 B1 G3", ["value 1", "value 3", "value 2"], 0),
    ("R1 R2 B1 G3", ["colour G", "colour R", "colour B"], 0),
    ("R1 R2 B1 G3", ["colour G", "value 2", "value 1"], 0),
    ("R1 R2 B1 G3", ["colour G", "value 2", "colour R", "colour B"], 1),
])
def test_whoever_takes_the_last_chip_wins(chips, moves, winner):
    game = new_game(chips=chips)
    for i, label in enumerate(moves):
        assert not game.over
        assert game.to_move.index == i % 2
        choose(game, label)
    assert game.over
    assert game.winners == (winner,)
    assert game.payoffs() == [1 if seat == winner else 0 for seat in (0, 1)]
    assert len(game.memory.vars["table"]) == 0 and game.to_move is None and game.options() == []


def test_first_2_makes_p2_move_first():
    game = new_game(chips="R1 B2", first=2)
    assert game.to_move.index == 1 and game.to_move.name == "P2"
    choose(game, "colour R")
    assert game.to_move.index == 0
    choose(game, "colour B")
    assert game.winners == (0,)
    single = new_game(chips="G4", first=2)
    choose(single, "value 4")
    assert single.winners == (1,)


def test_first_defaults_to_p1():
    assert new_game(chips="R1 B2").to_move.index == 0
    assert new_game(chips="R1 B2", first=1).to_move.index == 0


def test_play_game_with_random_agents_ends_with_one_winner_who_took_the_last_chip():
    program = shipped_program("fichas", count="10", colours="3", values="3")
    for seed in range(10):
        last = []
        result = play_game(program, [RandomAgent(seed), RandomAgent(seed + 100)], seed=seed,
                           listeners=[lambda r, last=last: last.append(r["player"])
                                      if r["type"] == "decision" else None])
        assert result.winners == (["P1", "P2"].index(last[-1]),)
        assert sorted(result.payoffs) == [0, 1]


# -------------------------------------------------------- generated positions
@pytest.mark.parametrize("count, colours, values", [(12, 3, 5), (1, 1, 1), (30, 26, 99), (7, 2, 9)])
def test_a_generated_position_has_count_chips_in_range(count, colours, values):
    for seed in range(5):
        game = new_game(seed, count=count, colours=colours, values=values)
        chips = [chip(n) for n in table(game)]
        assert len(chips) == count
        assert {c for c, _ in chips} <= set(LETTERS[:colours])
        assert all(1 <= v <= values for _, v in chips)
        assert removed(game) == []


def test_a_generated_position_uses_the_whole_range():
    # 300 independent draws over 3 x 4 combinations: each appears (the chance
    # that one given combination is missing is (11/12)**300, about 5e-12)
    game = new_game(3, count=300, colours=3, values=4)
    seen = {chip(n) for n in table(game)}
    assert seen == {(c, v) for c in "RBG" for v in range(1, 5)}


def test_the_default_position_is_twelve_chips_of_four_colours_and_values():
    game = new_game(11)
    chips = [chip(n) for n in table(game)]
    assert len(chips) == 12
    assert {c for c, _ in chips} <= set("RBGY") and {v for _, v in chips} <= {1, 2, 3, 4}


@pytest.mark.parametrize("colours, values", [(1, 1), (3, 4), (4, 2), (5, 5)])
def test_full_gives_every_colour_and_value_once(colours, values):
    game = new_game(full="true", colours=colours, values=values, count=3)
    expected = sorted(f"{c}{v}" for c in LETTERS[:colours] for v in range(1, values + 1))
    assert table(game) == expected
    assert len(labels(game)) == colours + values


def test_full_does_not_depend_on_the_seed():
    assert table(new_game(1, full="true", colours=3, values=3)) == table(new_game(2, full="true", colours=3, values=3))


def test_the_same_seed_gives_the_same_position_and_others_differ():
    positions = [Counter(table(new_game(seed, count=10, colours=4, values=6))) for seed in range(6)]
    again = [Counter(table(new_game(seed, count=10, colours=4, values=6))) for seed in range(6)]
    assert positions == again
    assert len({tuple(sorted(p.items())) for p in positions}) > 1


def test_explicit_chips_override_the_generated_position():
    game = new_game(5, chips="R1 B2", count=9, colours=7, full="true")
    assert table(game) == ["B2", "R1"]


# --------------------------------------------------------------------- views
def test_views_show_the_table_to_everyone():
    game = new_game(chips="R1 R2 B1 G3")
    for seat in (0, 1, None):
        view = game.view(seat)
        assert sorted(view["zones"]["table"]) == ["B1", "G3", "R1", "R2"]
        assert view["zones"]["removed"] == []
        assert view["to_move"] == "P1"
        assert view["seat"] == seat
    choose(game, "value 1")
    for seat in (0, 1):
        view = game.view(seat)
        assert sorted(view["zones"]["table"]) == ["G3", "R2"]
        assert sorted(view["zones"]["removed"]) == ["B1", "R1"]
        assert view["to_move"] == "P2"
    assert game.decision().view == game.view(1)


def test_the_program_is_perfect_information():
    assert shipped_program("fichas", chips="R1").perfect_information


# ----------------------------------------------------------- conservation
@pytest.mark.parametrize("params", [
    {"count": 12, "colours": 4, "values": 4},
    {"count": 20, "colours": 3, "values": 6},
    {"full": "true", "colours": 4, "values": 3},
    {"count": 6, "colours": 1, "values": 2},
])
def test_chips_are_on_the_table_or_removed_after_every_move_of_random_games(params):
    program = shipped_program("fichas", **{k: str(v) for k, v in params.items()})
    for seed in range(15):
        game = Game(program, seed)
        game.start()
        everything = sorted(c.id for c in game.memory.vars["table"])
        rng = random.Random(seed)
        mover = 0
        while not game.over:
            on_table = list(game.memory.vars["table"])
            # the options are exactly the colours and values in play
            assert set(labels(game)) == {f"colour {c.colour}" for c in on_table} | \
                {f"value {c.value}" for c in on_table}
            assert game.to_move.index == mover
            option = rng.choice(game.options())
            kind, what = option.label.split()
            taken = {c.id for c in on_table if (c.colour == what if kind == "colour" else c.value == int(what))}
            game.apply(option)
            on, off = [c.id for c in game.memory.vars["table"]], [c.id for c in game.memory.vars["removed"]]
            assert len(on) == len(set(on)) and len(off) == len(set(off)), "a chip is twice in a zone"
            assert not set(on) & set(off), "a chip is both in play and removed"
            assert sorted(on + off) == everything, "a chip was lost or made"
            assert set(on) == {c.id for c in on_table} - taken
            mover = 1 - mover
        assert len(game.memory.vars["table"]) == 0
        assert game.winners == (1 - mover,)  # the player who made the last move
