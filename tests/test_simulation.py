"""simulate --jobs/--json, Wilson intervals, partial results on Ctrl-C, output paths checked first,
bots' fault reasons in summaries, plurals."""
import json
import math
import re

import pytest
from click.testing import CliRunner

from naipes.agents.human import render_view
from naipes.tools import simulation, tournament
from naipes.tools.cli import main
from naipes.tools.statistics import wilson_interval

BAD_BOT = '''
from naipes.bots import Bot

class Stubborn(Bot):
    def decide(self, view, options):
        return "no such option"
'''


def naipes(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def clean(result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


# ================================================================== Wilson
def test_wilson_interval_matches_published_values():
    # Wilson 95 % intervals (Newcombe 1998, table I):
    # 0/10 -> [0, 0.2775], 10/10 -> [0.7225, 1], 5/10 -> [0.2366, 0.7634]
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


# ================================================================ simulate
def simulate_json(tmp_path, *args: str) -> dict:
    out = tmp_path / f"sim{len(list(tmp_path.iterdir()))}.json"
    result = naipes("simulate", *args, "--json", str(out))
    clean(result)
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text(encoding="utf-8"))


def test_simulate_json_counts_every_game(tmp_path):
    data = simulate_json(tmp_path, "fichas", "-n", "12", "--seed", "4", "--seat", "random", "--seat", "greedy")
    assert data["games"] == 12 and data["interrupted"] is False
    assert [s["agent"] for s in data["seats"]] == ["random", "greedy"]
    assert sum(s["wins"] for s in data["seats"]) == 12   # one winner per chip game
    for seat in data["seats"]:
        assert seat["win_rate"] == seat["wins"] / 12
        assert seat["win_ci"] == pytest.approx(list(wilson_interval(seat["wins"], 12)))


def test_a_perfect_record_does_not_collapse_the_interval(tmp_path):
    # R1 R2 B1 G3 is won for the player to move: minimax at P1 wins all 10 games, random at P2 none
    data = simulate_json(tmp_path, "fichas", "-n", "10", "--seed", "1", "-p", "chips=R1 R2 B1 G3",
                         "--seat", "minimax", "--seat", "random")
    best, rand = data["seats"]
    assert (best["wins"], rand["wins"]) == (10, 0)
    assert best["win_ci"] == pytest.approx([0.7225, 1.0], abs=1e-4)
    assert rand["win_ci"] == pytest.approx([0.0, 0.2775], abs=1e-4)


@pytest.mark.slow
def test_simulate_gives_the_same_results_with_any_number_of_jobs(tmp_path):
    args = ("tute_cabrero", "-n", "3", "--seed", "2", "-p", "porotos_to_retire=1", "--opponents", "random")
    one = simulate_json(tmp_path, *args, "--jobs", "1")
    two = simulate_json(tmp_path, *args, "--jobs", "2")
    assert one == two


def test_simulate_prints_the_fault_reasons_of_a_bot(tmp_path):
    (tmp_path / "stubborn.py").write_text(BAD_BOT, encoding="utf-8")
    result = naipes("simulate", "fichas", "-n", "2", "--seed", "1", "-p", "chips=R1 R2 B1 G3",
                    "--seat", f"python:{tmp_path / 'stubborn.py'}:Stubborn", "--seat", "random")
    clean(result)
    assert result.exit_code == 0, result.output
    # it moves at least once a game, and every answer is a fault
    count = int(re.search(r"^P1 Stubborn: (\d+) faults, the first:$", result.output, re.M)[1])
    assert count >= 2 and re.search(rf"^P1\s+Stubborn .* {count}$", result.output, re.M)
    assert "seed 1, decision 1: decide answered 'no such option', which is not a legal option" in result.output


def test_competition_prints_the_fault_reasons_of_a_bot(tmp_path):
    (tmp_path / "stubborn.py").write_text(BAD_BOT, encoding="utf-8")
    result = naipes("competition", str(tmp_path), "--ruleset", "fichas", "-n", "1", "--seed", "1")
    clean(result)
    assert result.exit_code == 0, result.output
    assert "Competition: 1 bot, 1 game per rule file, seed 1" in result.output
    assert re.search(r"^Stubborn: \d+ faults?, the first:$", result.output, re.M)
    assert "decide answered 'no such option', which is not a legal option" in result.output


def test_plurals_are_right():
    result = naipes("simulate", "fichas", "-n", "1", "--seed", "3", "--seat", "random", "--seat", "random")
    assert "1 game, seeds 3..3" in result.output and "1 games" not in result.output
    text = "".join(str(part) for part in render_view(
        {"seat": 0, "phase": None, "state": {}, "zones": {"stock": {"count": 1}},
         "players": [{"name": "P1", "seat": 0}]}
    ).renderables)
    assert "stock: 1 card" in text and "1 cards" not in text


# =================================================================== Ctrl-C
def ctrl_c_after(count, play):
    """`play` (a generator of results), with Ctrl-C pressed once it has given `count` of them."""
    def played(*args, **kwargs):
        for i, outcome in enumerate(play(*args, **kwargs)):
            if i == count:
                raise KeyboardInterrupt
            yield outcome
    return played


def test_a_tournament_interrupted_reports_the_deals_played(monkeypatch, tmp_path):
    monkeypatch.setattr(tournament, "play_deals", ctrl_c_after(3, tournament.play_deals))
    out = tmp_path / "r.json"
    result = naipes("tournament", "fichas", "-n", "10", "--seed", "1", "--jobs", "1", "--seat", "minimax",
                    "--seat", "random", "--json", str(out))
    assert result.exit_code == 130
    assert "interrupted: the results of the first 3 deals of 10" in result.output
    assert "fichas: 3 deals, 6 games, seed 1" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["deals"] == 3 and data["requested"] == 10 and data["interrupted"] is True


def test_a_simulation_interrupted_reports_the_games_played(monkeypatch, tmp_path):
    monkeypatch.setattr(simulation, "play_games", ctrl_c_after(2, simulation.play_games))
    out = tmp_path / "s.json"
    result = naipes("simulate", "fichas", "-n", "10", "--seed", "1", "--json", str(out))
    assert result.exit_code == 130
    assert "interrupted: the results of the first 2 games of 10" in result.output
    assert "The chip game (fichas): 2 games, seeds 1..2" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert (data["games"], data["requested"], data["interrupted"]) == (2, 10, True)
    assert sum(seat["wins"] for seat in data["seats"]) == 2


def test_ctrl_c_before_any_deal_stops_without_results(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr(tournament, "play_deals", interrupted)
    result = naipes("tournament", "fichas", "-n", "5", "--seat", "random", "--seat", "random")
    assert result.exit_code == 130 and "interrupted" in result.output and "deals," not in result.output


# ============================================================ output paths
@pytest.mark.parametrize("command", [
    ["play", "fichas", "--seat", "random", "--seat", "random", "--log"],
    ["simulate", "fichas", "-n", "2", "--json"],
    ["tournament", "fichas", "-n", "2", "--seat", "random", "--seat", "random", "--json"],
    ["tournament", "fichas", "-n", "2", "--seat", "random", "--seat", "random", "--plot"],
])
def test_an_output_path_in_a_missing_folder_is_refused_before_any_work(command, tmp_path):
    result = naipes(*command, str(tmp_path / "no" / "such" / "out.png"))
    clean(result)
    assert result.exit_code == 2
    assert "does not exist" in result.output and command[-1] in result.output
    assert "seed" not in result.output   # nothing was played


@pytest.mark.slow
def test_an_output_path_that_is_a_folder_or_a_plot_of_an_unknown_format_is_refused(tmp_path):
    result = naipes("play", "fichas", "--log", str(tmp_path))
    assert result.exit_code == 2 and "is a folder" in result.output
    result = naipes("tournament", "fichas", "-n", "2", "--seat", "random", "--seat", "random",
                    "--plot", str(tmp_path / "r.xyz"))
    assert result.exit_code == 2 and ".png" in result.output and "Traceback" not in result.output
