"""docs/tutorial.md: each step's file does what the page says (its YAML blocks, put end to end, are the game)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from naipes import RandomAgent, load_program, play_game
from naipes.errors import NaipesError
from naipes.language.strategies import compile_strategy
from naipes.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
STEPS = {int(n): block for block, n in re.findall(r"```yaml\n(# step (\d)[^\n]*\n.*?)```", PAGE, re.S)}


def written(tmp_path: Path, name: str, *steps: int) -> Path:
    path = tmp_path / name
    path.write_text("".join(STEPS[n] for n in steps), encoding="utf-8")
    return path


def test_the_page_has_five_steps():
    assert sorted(STEPS) == [1, 2, 3, 4, 5]


@pytest.mark.slow  # each compiles the game (about a second)
def test_steps_1_and_2_are_refused_for_what_the_page_says(tmp_path):
    first = CliRunner().invoke(main, ["check", str(written(tmp_path, "s1.yaml", 1))])
    assert first.exit_code == 1 and "the game is stuck: no rule can fire" in first.output
    second = CliRunner().invoke(main, ["check", str(written(tmp_path, "s2.yaml", 1, 2))])
    assert second.exit_code == 1 and "unknown name 'led'" in second.output
    with pytest.raises(NaipesError, match="9 is above the maximum 6"):
        load_program(tmp_path / "s1.yaml", {"hand_size": "9"})


@pytest.mark.slow
def test_step_3_is_the_example_game_and_plays(tmp_path):
    path = written(tmp_path, "high_card.yaml", 1, 2, 3)
    program = load_program(path)
    example = load_program(ROOT / "examples" / "high_card.yaml")
    assert sorted(program.moves) == sorted(example.moves) and [r.name for r in program.rules] == \
        [r.name for r in example.rules]
    result = play_game(program, [RandomAgent(1), RandomAgent(2)], seed=3)
    assert sum(result.payoffs) == 3   # three tricks, each to one player


@pytest.mark.slow
def test_steps_4_and_5_a_variant_and_a_strategy(tmp_path):
    written(tmp_path, "high_card.yaml", 1, 2, 3)
    low = load_program(written(tmp_path, "low_card.yaml", 4))
    assert low.name == "low_card" and low.title == "Low card"
    strategy = compile_strategy(written(tmp_path, "high.yaml", 5), load_program(tmp_path / "high_card.yaml"))
    assert strategy.default == "random" and "play_the_highest_card" in [r.name for r in strategy.program.rules]
