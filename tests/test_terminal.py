"""The human seat: rendering, history, refusals with reasons."""
import io
import json
import re
from dataclasses import replace

import pytest
from click.testing import CliRunner
from rich.console import Console

from naipes import RandomAgent, play_game
from naipes.agents.human import HumanAgent, render_view
from naipes.runtime.game import Game
from naipes.tools.cli import main

from helpers import shipped_program


def human(answers: list[str]) -> tuple[HumanAgent, io.StringIO]:
    out = io.StringIO()
    replies = iter(answers)
    return HumanAgent(ask=lambda prompt: next(replies), console=Console(file=out, width=100)), out


def test_history_lists_the_moves_so_far():
    program = shipped_program("fichas", chips="R1 R2 R3 B1 B2 B3 G1 G2 G3")
    # P1 = random moves first; the human (P2) asks for the history before answering
    agent, out = human(["history", "1", "history", "1", "history", "1", "history", "1"])
    play_game(program, [RandomAgent(5), agent], seed=2)
    text = out.getvalue()
    first_history = text.split("P2, your move:")[1]
    # P1's first move is in the history the human sees, in its own words
    assert re.search(r"\nP1 takes every chip of (colour|value) \w+\n", first_history)


def test_refused_answer_keeps_asking_and_explains():
    program = shipped_program("fichas", chips="R1 R2 B1")
    agent, out = human(["value 7", "colour", "colour B", "1", "1"])
    play_game(program, [agent, RandomAgent(1)], seed=1)
    text = out.getvalue()
    assert "'value 7' is not a legal move" in text
    assert "'colour' could be colour B, colour R" in text


def test_the_view_shows_zones_and_whose_seat():
    game = Game(shipped_program("fichas", chips="R1 B2"), 0)
    game.start()
    out = io.StringIO()
    Console(file=out, width=100).print(render_view(game.view(0)))
    assert "table: B2 R1" in out.getvalue()  # an unordered zone is shown sorted
    assert "You are P1." in out.getvalue()


def naipes(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def test_each_move_is_told_once_in_its_own_words(tmp_path):
    log = tmp_path / "pocha.jsonl"
    result = naipes("play", "pocha", "--seed", "3", "-p", "peak=2", "--players", "3", "--log", str(log),
                    input="1\n" * 12 + "quit\n")
    made = [json.loads(line) for line in log.read_text().splitlines()]
    made = [(r["player"], r["move"], r["public"]) for r in made if r["type"] == "decision"]
    told = [line.removeprefix("> ") for line in result.output.splitlines()
            if re.fullmatch(r"(> )?P\d (bids \d|plays \d+[oceb])", line)]
    assert len(made) > 6 and told == [f"{player} {'bids' if move == 'bid' else 'plays'} {public.removeprefix('bid ')}"
                                      for player, move, public in made]
    assert " plays bid" not in result.output and not re.search(r"^\* P\d bids", result.output, re.M)


@pytest.mark.parametrize("ruleset, move, public, told", [
    ("tricks", "bid", "bid 3", "P2 bids 3"),
    ("tricks", "play", "3o", "P2 plays 3o"),
    ("tute_cabrero", "sing", "sing las cuarenta", "P2 sings las cuarenta"),
    ("wizard", "choose_trump", "trump hearts", "P2 chooses trump hearts"),
    ("chinchon", "draw", "draw stock", "P2 draws from the stock"),
    ("chinchon", "draw", "take 5o", "P2 takes 5o"),
    ("chinchon", "close", "close", "P2 closes"),       # its public form hides the card put face down
    ("fichas", "take_colour", "colour R", "P2 takes every chip of colour R"),
])
def test_a_move_reads_with_the_verb_its_rule_file_gives(ruleset, move, public, told):
    assert shipped_program(ruleset).moves[move].told("P2", public) == told


def test_a_move_without_an_argument_is_told_by_its_verb_alone():
    # `verb: stands` on a move without `choose`: its public form is its name ("P1 stands stand" before)
    from naipes.program import MoveSpec
    stand = MoveSpec("stand", None, None, [], None, None, lambda *a: None, verb="stands")
    assert stand.told("P1", "stand") == "P1 stands"
    assert stand.told("P1", "stand pat") == "P1 stands stand pat"  # (a public form of its own keeps the verb before it)
    assert replace(stand, arg="c").told("P1", "stand") == "P1 stands stand"  # (an argument that reads as the name)


def test_a_move_without_a_verb_is_told_plainly():
    spec = shipped_program("chinchon").moves["draw"]
    assert spec.told("P1", "shuffle") == "P1: shuffle"   # none of its words: no verb is guessed
    assert replace(spec, verb=None).told("P1", "draw stock") == "P1: draw stock"


def test_the_table_hides_bookkeeping_and_labels_the_trick():
    result = naipes("play", "pocha", "--seed", "3", "-p", "peak=2", "--players", "3", input="1\n" * 5 + "quit\n")
    heads = [line for line in result.output.splitlines() if line.startswith("phase:")]
    assert heads and not any(" turn:" in line or " played:" in line for line in heads)
    assert re.search(r"^trick: P\d \d+[oceb](, P\d \d+[oceb])*$", result.output, re.M)  # who played each card


def test_help_rules_says_how_to_play():
    result = naipes("play", "fichas", "--seed", "1", input="help rules\nquit\n")
    program = shipped_program("fichas")
    assert "'help rules' says how to play" in result.output
    assert program.doc and program.doc.splitlines()[0] in result.output
    assert "take_colour: take every chip in play of one colour" in result.output


def test_a_hand_at_the_terminal_is_in_the_rule_files_display_order():
    # President's 2 is its highest rank: `display: values` lists the ranks in that order, and the terminal shows a
    # hand as the web table does (it had shown the 2s first, by the raw rank number)
    from naipes.agents.human import in_display_order
    president = shipped_program("president")
    view = {"zones": {"table": []}, "players": [{"name": "P1", "seat": 0, "hand": ["2c", "Ad", "3h", "10s", "Kc"]}]}
    assert in_display_order(president, view)["players"][0]["hand"] == ["3h", "10s", "Kc", "Ad", "2c"]
    # Chinchón names some ranks only (as, sota, caballo, rey): no order of ranks, so theirs, within the suits' order
    chinchon = shipped_program("chinchon")
    view["players"][0]["hand"] = ["11b", "5b", "10c", "6c", "7o"]
    assert in_display_order(chinchon, view)["players"][0]["hand"] == ["7o", "6c", "10c", "5b", "11b"]
