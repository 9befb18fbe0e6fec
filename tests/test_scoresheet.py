"""The score sheet: the variables a rule file declares as scores (`score: true`), after each hand and at the end.

Written from the rules: Pocha with peak 2 deals three hands (1, 2 and 1 cards), so its sheet has three rows
and ends with every player's total; Tute Cabrero counts each hand's points and the porotos of whoever lost
it; the chip game declares no score, and its end says only who won.
"""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from naipes.agents.registry import make_agent
from naipes.runtime.game import Game, play_game
from naipes.tools.cli import main
from naipes.tools.replay import Replay
from naipes.tools.scoresheet import ScoreSheet, score_columns

from helpers import RULESETS, load_errors, shipped_program, write_rules

POCHA = {"peak": "2", "random_seats": "false"}


def played(name: str, params: dict, seats: int, seed: int) -> tuple[Game, dict | None, list[str]]:
    """A game of random players of the shipped game `name`, its sheet and its winners."""
    program = shipped_program(name, **params)
    game = Game(program, seed, players=seats)
    sheet = ScoreSheet(score_columns(program))
    result = play_game(program, [make_agent("random", seed=seed + i) for i in range(seats)], seed, game=game,
                       on_decision=lambda _: sheet.note(game.view(None)))
    sheet.note(game.view(None))
    return game, sheet.data(), [result.names[i] for i in result.winners]


def test_the_shipped_games_declare_their_scores():
    assert score_columns(shipped_program("pocha")) == ["score"]
    assert score_columns(shipped_program("wizard")) == ["score"]
    assert score_columns(shipped_program("chinchon_jokers")) == ["score"]
    assert score_columns(shipped_program("tute_cabrero")) == ["points", "porotos"]
    assert score_columns(shipped_program("fichas")) == []


def test_a_pocha_of_three_hands_has_three_rows_and_ends_with_the_totals():
    game, sheet, winners = played("pocha", POCHA, 4, seed=9)
    final = [[p["score"]] for p in game.view(None)["players"]]
    assert sheet["players"] == ["P1", "P2", "P3", "P4"] and len(sheet["rows"]) == 3
    assert sheet["rows"][-1] == sheet["total"] == final
    best = max(score for [score] in final)
    assert winners == [name for name, [score] in zip(sheet["players"], final) if score == best]
    for before, after in zip([[[0]] * 4] + sheet["rows"], sheet["rows"]):  # a hand changes every total
        assert all(b != a for b, a in zip(before, after))  # (a bid made scores 10 and more, one missed loses)


def test_tute_notes_each_hands_points_and_the_porotos_of_who_lost_it():
    game, sheet, _ = played("tute_cabrero", {}, 3, seed=4)
    assert sheet["columns"] == ["points", "porotos"] and sheet["rows"]
    porotos = [0, 0, 0]
    for row in sheet["rows"]:
        porotos_now = [values[1] for values in row]
        assert all(now - before in (0, 1) for before, now in zip(porotos, porotos_now))  # a hand lost: one more
        porotos = porotos_now
    assert sheet["total"] == [[p["points"], p["porotos"]] for p in game.view(None)["players"]]


def test_a_game_without_scores_has_no_sheet():
    _, sheet, winners = played("fichas", {"count": "6"}, 2, seed=1)
    assert sheet is None and len(winners) == 1


def test_naipes_play_ends_with_the_score_sheet(tmp_path):
    log = tmp_path / "pocha.jsonl"
    result = CliRunner().invoke(main, ["play", "pocha", "-p", "peak=2", "-p", "random_seats=false", "--seed", "9",
                                       "--log", str(log), *["--seat", "random"] * 4])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    start = lines.index(next(line for line in lines if line.split() == ["hand", "P1", "P2", "P3", "P4"]))
    rows = lines[start + 1:]
    assert [row.split()[0] for row in rows] == ["1", "2", "3", "total"]
    final = Replay.load(log).game  # the same game, run again from its log
    assert rows[-1].split()[1:5] == [str(p["score"]) for p in final.view(None)["players"]]
    winners = [final.memory.players[i].name for i in final.result().winners]
    assert rows[-1].endswith(f"({', '.join(winners)} {'wins' if len(winners) == 1 else 'win'})")


def test_naipes_play_of_a_game_without_scores_gives_the_payoffs():
    result = CliRunner().invoke(main, ["play", "fichas", "--seed", "3", "--seat", "random", "--seat", "random"])
    assert result.exit_code == 0 and "hand" not in result.output and re.search(r"P1: [01]", result.output)


FICHAS = (RULESETS / "fichas.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("text", [
    FICHAS.replace("\nstate:\n", "\nstate:\n  x: {init: 0, score: true}\n"),
    FICHAS + "\nplayer_state:\n  x: {init: 0, score: true, visibility: hidden}\n",
    FICHAS + "\nplayer_state:\n  x: {init: 0, score: 3}\n",
])
def test_a_score_is_a_public_player_variable(tmp_path, text):
    errors = load_errors(write_rules(tmp_path, "", tail=text))
    assert len(errors) == 1 and "'score' is true or false, on a public per-player variable" in str(errors[0])
    assert errors[0].location.line == text.count("\n", 0, text.index("score: ")) + 1
