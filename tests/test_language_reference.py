"""docs/language.md covers the whole language, and its annotated game is examples/high_card.yaml, which plays."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from naipes import Game, RandomAgent, load_program, play_game
from naipes.language.vocabulary import RULE_FILE, STRATEGY_FILE, Either, Entries, ListOf, Record
from naipes.library.builtins import BUILTINS

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
EXAMPLE = ROOT / "examples" / "high_card.yaml"
# the statements of engine/language/grammar.lark, by their first words
STATEMENTS = ["let", "move", "shuffle", "deal", "ask", "end game", "announce", "goto", "refresh", "pass", "if", "for",
              "assert", "retract", "modify", "exists"]


def keys(shape: object, seen: set[int]) -> set[str]:
    """Every key of a vocabulary shape and of the shapes inside it."""
    if id(shape) in seen:
        return set()
    seen.add(id(shape))
    if isinstance(shape, Record):
        return set(shape.fields) | {k for f in shape.fields.values() for k in keys(f.shape, seen)}
    if isinstance(shape, (ListOf, Entries)):
        return keys(shape.item if isinstance(shape, ListOf) else shape.value, seen)
    if isinstance(shape, Either):
        return {k for option in shape.options for k in keys(option, seen)}
    return set()


def documented(word: str) -> bool:
    return f"`{word}`" in REFERENCE or re.search(rf"`[^`\n]*\b{re.escape(word)}\b[^`\n]*`", REFERENCE) is not None


@pytest.mark.parametrize("name, shape", [("rule files", RULE_FILE), ("strategy files", STRATEGY_FILE)])
def test_every_key_of_the_vocabulary_is_in_the_reference(name, shape):
    missing = sorted(k for k in keys(shape, set()) if not documented(k))
    assert not missing, f"docs/language.md does not mention these keys of {name}: {missing}"


def test_every_built_in_function_and_statement_is_in_the_reference():
    missing = [f for f in BUILTINS if not documented(f)] + [s for s in STATEMENTS if not documented(s)]
    assert not missing, f"docs/language.md does not mention: {missing}"


def test_the_annotated_game_is_the_example_file_line_by_line():
    blocks = re.findall(r"```yaml\n(.*?)```", REFERENCE.split("## A minimal game, annotated")[1], re.S)
    def lines(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.strip()]
    assert lines("".join(blocks)) == lines(EXAMPLE.read_text(encoding="utf-8"))


def test_the_example_game_loads_and_plays_to_the_end():
    program = load_program(EXAMPLE)
    for seed in range(20):
        result = play_game(program, [RandomAgent(seed), RandomAgent(seed + 100)], seed=seed)
        assert sum(result.payoffs) == 3  # every trick is taken by someone
        best = max(result.payoffs)
        assert result.winners == tuple(i for i, p in enumerate(result.payoffs) if p == best)


def test_the_example_game_obliges_following_the_colour_led():
    game = Game(load_program(EXAMPLE, {"hand_size": "6"}), seed=4)
    game.start()
    game.apply(game.options()[0])
    led = game.memory.vars["played"][0][1].colour
    follower = game.mover
    same = [c.name for c in follower.hand if c.colour == led]
    offered = [o.arg.name for o in game.options()]
    assert offered == (same or [c.name for c in follower.hand])
