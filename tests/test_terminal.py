"""The human seat: rendering, history, refusals with reasons."""
import io

from rich.console import Console

from naipes import RandomAgent, load_program, play_game
from naipes.agents.human import HumanAgent, render_view
from naipes.runtime.game import Game


def human(answers: list[str]) -> tuple[HumanAgent, io.StringIO]:
    out = io.StringIO()
    replies = iter(answers)
    return HumanAgent(ask=lambda prompt: next(replies), console=Console(file=out, width=100)), out


def test_history_lists_the_moves_so_far():
    program = load_program("rulesets/fichas.yaml", {"chips": "R1 R2 R3 B1 B2 B3 G1 G2 G3"})
    # P1 = random moves first; the human (P2) asks for the history before answering
    agent, out = human(["history", "1", "history", "1", "history", "1", "history", "1"])
    play_game(program, [RandomAgent(5), agent], seed=2)
    text = out.getvalue()
    first_history = text.split("P2, your move:")[1]
    assert "P1: " in first_history  # P1's first move is in the history the human sees


def test_refused_answer_keeps_asking_and_explains():
    program = load_program("rulesets/fichas.yaml", {"chips": "R1 R2 B1"})
    agent, out = human(["value 7", "colour", "colour B", "1", "1"])
    play_game(program, [agent, RandomAgent(1)], seed=1)
    text = out.getvalue()
    assert "'value 7' is not a legal move" in text
    assert "'colour' could be colour B, colour R" in text


def test_the_view_shows_zones_and_whose_seat():
    game = Game(load_program("rulesets/fichas.yaml", {"chips": "R1 B2"}), 0)
    game.start()
    out = io.StringIO()
    Console(file=out, width=100).print(render_view(game.view(0)))
    assert "table: B2 R1" in out.getvalue()  # an unordered zone is shown sorted
    assert "You are P1." in out.getvalue()
