"""Variants: a short file that extends a base and overrides rules by name."""
import random
from functools import cache
from pathlib import Path

import pytest

from naipes import Game, Solver, load_program
from naipes.errors import RuleErrors

from helpers import RULESETS, shipped


@cache
def misere_mover_wins(position: tuple) -> bool:
    """Misère chip game: taking the last chip loses. Positions are sorted (colour, value) tuples."""
    moves = [tuple(x for x in position if x[0] != c) for c in {c for c, _ in position}]
    moves += [tuple(x for x in position if x[1] != v) for v in {v for _, v in position}]
    # a move that empties the table loses at once; any other wins if it leaves a lost position
    return any(rest and not misere_mover_wins(rest) for rest in moves)


def test_misere_variant_replaces_only_the_winning_rule():
    base = load_program(shipped("fichas"), {})
    variant = load_program(shipped("fichas_misere"), {})
    assert [r.name for r in variant.rules] == [r.name for r in base.rules]
    assert variant.title != base.title
    assert variant.params.keys() == base.params.keys()


def test_misere_single_chip_loses_for_the_mover():
    game = Game(load_program(shipped("fichas_misere"), {"chips": "R1"}), 0)
    game.start()
    game.apply(game.options()[0])
    assert game.over and game.winners == (1,)


@pytest.mark.slow
def test_misere_solver_agrees_with_brute_force():
    rng = random.Random(11)
    for _ in range(40):
        chips = tuple(sorted(("RBG"[rng.randrange(3)], rng.randint(1, 3)) for _ in range(rng.randint(1, 7))))
        program = load_program(shipped("fichas_misere"), {"chips": " ".join(f"{c}{v}" for c, v in chips)})
        game = Game(program, 0)
        game.start()
        won = any(value[0] == 1 for _, value in Solver().evaluate(game))
        assert won == misere_mover_wins(chips), chips


def test_override_of_a_missing_rule_is_a_located_error(tmp_path):
    (tmp_path / "base.yaml").write_text((RULESETS / "fichas.yaml").read_text())
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: base.yaml\noverride:\n  - name: last_chip_win\n    then: pass\n")
    with pytest.raises(Exception) as info:
        load_program(variant, {})
    error = info.value.errors[0] if isinstance(info.value, RuleErrors) else info.value
    assert "last_chip_win" in error.message and error.location.line == 3
    assert "last_chip_wins" in (error.hint or "")


def test_a_variant_changes_one_field_of_a_move(tmp_path):
    # The base's move keeps its options and effect; the variant restates only 'legal'.
    (tmp_path / "base.yaml").write_text((RULESETS / "fichas.yaml").read_text())
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: base.yaml\nmoves:\n  take_colour:\n    legal: \"colour != 'R'\"\n")
    game = Game(load_program(variant, {"chips": "R1 B2"}), 0)
    game.start()
    assert sorted(o.label for o in game.options()) == ["colour B", "value 1", "value 2"]
    game.apply(next(o for o in game.options() if o.label == "colour B"))
    assert [c.name for c in game.memory.vars["removed"]] == ["B2"]  # the base's effect still runs


def test_join_and_shuffled(tmp_path):
    rule_file = tmp_path / "t.yaml"
    rule_file.write_text(
        "game: t\nplayers: 1\nstate:\n  text: \"''\"\n  order: \"()\"\n"
        "setup: |\n  text = join(['a', 1, 'b'], ', ')\n  order = tuple(shuffled(range(10)))\n"
        "rules:\n  - name: fin\n    then: end game\n")
    first, second = Game(load_program(rule_file), 4), Game(load_program(rule_file), 4)
    first.start(), second.start()
    assert first.memory.vars["text"] == "a, 1, b"
    assert sorted(first.memory.vars["order"]) == list(range(10))
    assert first.memory.vars["order"] == second.memory.vars["order"]  # seeded


def test_shuffled_is_refused_in_conditions(tmp_path):
    rule_file = tmp_path / "t.yaml"
    rule_file.write_text("game: t\nplayers: 1\nrules:\n  - name: r\n    when: \"len(shuffled([1])) == 1\"\n"
                         "    then: end game\n")
    with pytest.raises(RuleErrors, match="random"):
        load_program(rule_file)


def test_a_variant_slots_a_rule_between_the_base_rules_by_name(tmp_path):
    (tmp_path / "base.yaml").write_text("""
game: order
players: 1
state: {log: "''", done: false}
rules:
  - {name: first, priority: 5, when: "not done", then: "log = log + 'a'"}
  - {name: last, when: "not done", then: "log = log + 'c'\\ndone = True\\nend game"}
""")
    (tmp_path / "v.yaml").write_text("""
extends: base.yaml
rules:
  - {name: middle, before: last, when: "not done", then: "log = log + 'b'"}
""")
    game = Game(load_program(tmp_path / "v.yaml"), 0)
    game.start()
    assert game.memory.vars["log"] == "abc"
    assert [(r.name, r.priority) for r in game.program.rules] == [("first", 5), ("middle", 0), ("last", 0)]


def fichas_variant(tmp_path, text: str) -> Path:
    (tmp_path / "base.yaml").write_text((RULESETS / "fichas.yaml").read_text())
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: base.yaml\n" + text)
    return variant


def test_an_override_changes_a_rule_key_by_key(tmp_path):
    # Only 'then' is given: the base's 'when' and 'doc' stay, so the rule still fires only on an empty table.
    variant = fichas_variant(tmp_path, "override:\n  - name: last_chip_wins\n"
                                       "    then: end game winner next_player(last_taker)\n")
    program = load_program(variant, {"chips": "R1"})
    rule = next(r for r in program.rules if r.name == "last_chip_wins")
    assert rule.doc == "whoever takes the last chip wins"
    game = Game(program, 0)
    game.start()
    assert not game.over  # the kept 'when: len(table) == 0' holds it back while a chip is left
    game.apply(game.options()[0])
    assert game.over and game.winners == (1,)


def test_an_override_of_the_condition_alone_keeps_the_actions(tmp_path):
    variant = fichas_variant(tmp_path, "override:\n  - name: last_chip_wins\n    when: \"len(table) <= 1\"\n")
    game = Game(load_program(variant, {"chips": "R1 B2"}), 0)
    game.start()
    game.apply(next(o for o in game.options() if o.label == "colour R"))
    assert game.over and game.winners == (0,)  # one chip left: the base's 'then' ends it for the last taker


def test_an_override_key_given_as_null_is_taken_away(tmp_path):
    # 'when: ~' leaves the rule without a condition: the first rule to fire ends the game before any move.
    variant = fichas_variant(tmp_path, "override:\n  - name: last_chip_wins\n    when: ~\n    then: end game\n"
                                       "    priority: 10\n")
    game = Game(load_program(variant, {"chips": "R1 B2"}), 0)
    game.start()
    assert game.over and game.memory.vars["table"]
