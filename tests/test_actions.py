"""The fixed action space: every option of every shipped rule file has an id, and ids name the same options."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from naipes import Game, GameError, RuleError, RuleErrors, load_program
from naipes.bridges.actions import ActionSpace

from helpers import RULESETS, shipped_program

RULE_FILES = sorted(RULESETS.glob("*.yaml"))


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if p.stem.startswith(("chinchon", "wizard",
                                  "tute")) else p for p in RULE_FILES], ids=lambda p: p.stem)  # (slow: seconds each)
def test_every_offered_option_maps_to_an_id_and_back(path: Path) -> None:
    program = shipped_program(path.stem)
    space = ActionSpace(program)
    again = ActionSpace(load_program(path))  # (compiled again: the ids do not depend on one compilation)
    assert again.entries == space.entries  # stable for a rule file and its params
    decisions = seed = 0
    while seed < 20 or decisions <= 100:  # (a game of poker is a few decisions: more games then)
        seed += 1
        game = Game(program, seed)
        game.start()
        rng = random.Random(seed)
        for _ in range(120):  # long matches are cut: many starts see more than one long game
            if game.over:
                break
            options = game.options()
            ids = space.legal_ids(game)
            assert len(set(ids)) == len(options) and ids == sorted(ids)
            assert sum(space.mask(game)) == len(options)
            for option in options:
                assert space.option(game, space.id_of(option)) == option
            game.apply(space.option(game, rng.choice(ids)))
            decisions += 1
    assert decisions > 100


def test_ids_depend_on_params_and_players_only() -> None:
    small = ActionSpace(shipped_program("fichas", colours="2", values="3"))
    assert [small.describe(a) for a in range(small.size)] == \
        ["take_colour R", "take_colour B", "take_value 1", "take_value 2", "take_value 3"]
    pocha = shipped_program("pocha")
    assert ActionSpace(pocha, players=4).size == 40 + 11 and ActionSpace(pocha, players=5).size == 40 + 9


def test_an_illegal_action_is_refused_with_the_reason() -> None:
    program = shipped_program("tute_cabrero")
    space = ActionSpace(program)
    game = Game(program, 5)
    game.start()
    legal = set(space.legal_ids(game))
    illegal = next(a for a in range(space.size) if a not in legal and space.describe(a).startswith("play"))
    with pytest.raises(GameError, match=r"action \d+ \(play .*\) is not legal now"):
        space.option(game, illegal)
    with pytest.raises(GameError, match="not an action id"):
        space.option(game, space.size)


def test_a_move_whose_choices_come_from_the_state_needs_a_space(tmp_path: Path) -> None:
    rules = tmp_path / "g.yaml"
    rules.write_text("game: g\nstate: {n: 3}\nmoves:\n  pick: {choose: \"k in range(n)\"}\n"
                     "rules:\n  - {name: go, when: 'n > 0', then: 'ask players[0] to pick'}\n", encoding="utf-8")
    with pytest.raises(RuleError, match="choices of move 'pick' depend on the game's state") as info:
        ActionSpace(load_program(rules))
    assert str(info.value).startswith(f"{rules}:4:3: ") and "'space:'" in info.value.hint  # (where pick is declared)
    rules.write_text(rules.read_text().replace('choose: "k in range(n)"', 'choose: "k in range(n)", space: "range(n)"'))
    with pytest.raises(RuleErrors, match=r"g.yaml:4:.*'space' may read only params, players and all_cards\(\), not n"):
        load_program(rules)
    rules.write_text(rules.read_text().replace('space: "range(n)"', 'space: "range(4)"'))
    assert ActionSpace(load_program(rules)).size == 4


def test_an_option_outside_the_declared_space_is_an_error(tmp_path: Path) -> None:
    rules = tmp_path / "g.yaml"
    rules.write_text("game: g\nmoves:\n  pick: {choose: \"k in [5]\", space: \"[1, 2]\", then: 'end game'}\n"
                     "rules:\n  - {name: go, then: 'ask players[0] to pick'}\n", encoding="utf-8")
    program = load_program(rules)
    game = Game(program, 0)
    game.start()
    with pytest.raises(GameError, match="move 'pick' offered 'pick 5', which is not in its space"):
        ActionSpace(program).legal_ids(game)


def test_an_illegal_id_of_a_move_without_an_argument_is_a_game_error(rule_file) -> None:
    program = load_program(rule_file("""
        game: g
        players: 2
        state:
          n: 0
        moves:
          pick: {choose: "x in [1, 2]", then: "n = x"}
          stop: {then: "end game"}
        rules:
          - name: ask
            when: "n == 0"
            then: "ask players[0] to pick"
        """))
    game = Game(program, 0)
    game.start()
    space = ActionSpace(program, 2)
    assert space.describe(2) == "stop"
    with pytest.raises(GameError, match=r"action 2 \(stop\) is not legal now"):
        space.option(game, 2)
